import { describe, expect, it } from 'vitest';
import { normalizeIp, resolveClientIp } from '@/server/services/client-ip';

describe('client IP', () => {
  it('uses the peer when it is not a trusted proxy, ignoring a forged X-Forwarded-For', () => {
    expect(resolveClientIp('203.0.113.9', '8.8.8.8', [])).toBe('203.0.113.9');
    expect(resolveClientIp('203.0.113.9', '8.8.8.8', ['10.0.0.1'])).toBe('203.0.113.9');
  });

  it('takes the rightmost untrusted address behind trusted proxies', () => {
    expect(resolveClientIp('10.0.0.1', '1.2.3.4, 8.8.8.8, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('8.8.8.8');
  });

  it('unwraps IPv4-mapped IPv6 and rejects garbage', () => {
    expect(normalizeIp('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(normalizeIp('not-an-ip')).toBeNull();
    expect(resolveClientIp(undefined, '8.8.8.8', [])).toBeNull();
  });
});
