import { describe, expect, it } from 'vitest';
import { securityHeaders } from '@/lib/security-headers';

describe('security headers (lib/security-headers.ts)', () => {
  it('add HSTS for one year with subdomains on an https origin only (RFC 6797)', () => {
    const https = new Map(securityHeaders({ https: true }));
    expect(https.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
    const http = new Map(securityHeaders());
    expect(http.has('Strict-Transport-Security')).toBe(false);
    for (const headers of [https, http]) {
      expect(headers.get('X-Frame-Options')).toBe('DENY');
      expect(headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    }
  });

  it("allow Stripe.js and its embedded checkout only when asked (the checkout pages'), keeping the rest", () => {
    const stripe = new Map(securityHeaders({ stripe: true })).get('Content-Security-Policy')!;
    expect(stripe).toMatch(/script-src 'self' 'unsafe-inline'[^;]* https:\/\/js\.stripe\.com/);
    expect(stripe).toMatch(/frame-src 'self'[^;]* https:\/\/js\.stripe\.com/);
    expect(stripe).toMatch(/connect-src 'self'[^;]* https:\/\/api\.stripe\.com/);
    expect(stripe).toMatch(/connect-src 'self'[^;]* https:\/\/checkout\.stripe\.com/);
    expect(stripe).toMatch(/frame-src 'self'[^;]* https:\/\/checkout\.stripe\.com/);
    expect(stripe).toMatch(/img-src 'self'[^;]* https:\/\/\*\.stripe\.com/);
    expect(stripe).toContain("frame-ancestors 'none'");
    expect(new Map(securityHeaders()).get('Content-Security-Policy')).not.toContain('stripe.com');
  });
});
