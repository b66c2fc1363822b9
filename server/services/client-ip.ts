import 'server-only';
import { isIP } from 'node:net';

/**
 * The client's IP address for a request. `peer` is the TCP peer (header `x-peer-ip`, always overwritten by
 * scripts/start.mjs). `X-Forwarded-For` is honoured only when the peer is one of `trustedProxies`; then the rightmost
 * address that is not itself a trusted proxy is the client. A forged header from an untrusted peer is ignored.
 * Returns null when no valid address is known. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is unwrapped.
 */
export function resolveClientIp(
  peer: string | null | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: readonly string[],
): string | null {
  const direct = normalizeIp(peer);
  if (!direct) return null;
  const trusted = new Set(trustedProxies.map((p) => normalizeIp(p)).filter(Boolean));
  if (!trusted.has(direct) || !forwardedFor) return direct;
  const chain = forwardedFor
    .split(',')
    .map((x) => normalizeIp(x))
    .filter((x): x is string => Boolean(x));
  for (let i = chain.length - 1; i >= 0; i--) if (!trusted.has(chain[i])) return chain[i];
  return direct;
}

/** Trims, unwraps IPv4-mapped IPv6 and validates an address; null when it is not an IP. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}
