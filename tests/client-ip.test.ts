import { describe, expect, it } from 'vitest';
import { clientKey, normalizeIp, resolveClientIp } from '@/server/services/client-ip';

describe('client IP', () => {
  it('uses the peer when it is not a trusted proxy, ignoring a forged X-Forwarded-For', () => {
    expect(resolveClientIp('203.0.113.9', '8.8.8.8', [])).toBe('203.0.113.9');
    expect(resolveClientIp('203.0.113.9', '8.8.8.8', ['10.0.0.1'])).toBe('203.0.113.9');
  });

  it('takes the rightmost untrusted address behind trusted proxies', () => {
    expect(resolveClientIp('10.0.0.1', '1.2.3.4, 8.8.8.8, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('8.8.8.8');
    // A trusted peer written as IPv4-mapped IPv6, and a header entry that is no address, skipped.
    expect(resolveClientIp('::ffff:10.0.0.1', '8.8.8.8, junk', ['10.0.0.1'])).toBe('8.8.8.8');
    // Nothing but trusted proxies: the peer.
    expect(resolveClientIp('10.0.0.1', '10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('10.0.0.1');
    expect(resolveClientIp('10.0.0.1', undefined, ['10.0.0.1'])).toBe('10.0.0.1');
  });

  it('trusts whole networks in CIDR notation (an ingress controller in a pod network), and ignores bad ones', () => {
    const trusted = ['10.0.0.0/8', 'fd00::/8', 'not-a-net/99', '300.0.0.0/8'];
    expect(resolveClientIp('10.42.3.7', '203.0.113.9', trusted)).toBe('203.0.113.9');
    expect(resolveClientIp('fd00::1:2', '2001:db8::5, 10.1.1.1', trusted)).toBe('2001:db8::5');
    // A peer outside the networks is the client, whatever it forwards.
    expect(resolveClientIp('198.51.100.4', '203.0.113.9', trusted)).toBe('198.51.100.4');
    expect(resolveClientIp('11.0.0.1', '203.0.113.9', trusted)).toBe('11.0.0.1');
  });

  it('unwraps IPv4-mapped IPv6 and rejects garbage', () => {
    expect(normalizeIp('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(normalizeIp('not-an-ip')).toBeNull();
    expect(resolveClientIp(undefined, '8.8.8.8', [])).toBeNull();
  });

  it("keys per-client limits on an IPv6 client's /64 and on the IPv4 address of an IPv4-mapped one", () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:DB8:1:2::abcd')).toBe('2001:db8:1:2::/64');
    // A key given again (as orders.client_key keeps it) is the same key.
    expect(clientKey('2001:db8:1:2::/64')).toBe('2001:db8:1:2::/64');
    expect(clientKey('10.0.0.0/64')).toBe('unknown');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(clientKey('fe80::1%eth0')).toBe('fe80::/64');
    for (const value of [null, undefined, '', 'unknown', 'not-an-ip', '127.1'])
      expect(clientKey(value)).toBe('unknown');
  });
});
