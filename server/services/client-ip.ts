import 'server-only';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

type Trust = ReturnType<typeof proxyaddr.compile>;

/** proxy-addr's trust function for each list of trusted proxies (the settings' list is one array per process). */
const compiled = new WeakMap<readonly string[], Trust>();

/**
 * The trust function of `trustedProxies`: exact addresses and networks in CIDR notation (`10.0.0.0/8`, `fd00::/8`: a
 * Kubernetes ingress controller's pods have no fixed address, only the pod network's), entries that are neither left
 * out.
 */
function trustOf(trustedProxies: readonly string[]): Trust {
  let trust = compiled.get(trustedProxies);
  if (!trust) {
    trust = proxyaddr.compile(trustedProxies.map(trustedEntry).filter((p): p is string => Boolean(p)));
    compiled.set(trustedProxies, trust);
  }
  return trust;
}

/**
 * The client's IP address for a request. `peer` is the TCP peer (header `x-peer-ip`, always overwritten by
 * scripts/start.mjs). `X-Forwarded-For` is honoured only when the peer is one of `trustedProxies`; then the rightmost
 * address that is not itself a trusted proxy is the client (proxy-addr's walk, as Express's `trust proxy` does); when
 * every address is a trusted proxy, the peer. A forged header from an untrusted peer is ignored; entries of the header
 * that are not IP addresses are skipped. Returns null when no valid address is known. IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`) is unwrapped.
 */
export function resolveClientIp(
  peer: string | null | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: readonly string[],
): string | null {
  const direct = normalizeIp(peer);
  if (!direct) return null;
  const trust = trustOf(trustedProxies);
  const chain = (forwardedFor ?? '')
    .split(',')
    .map((x) => normalizeIp(x))
    .filter((x): x is string => Boolean(x));
  const request = { socket: { remoteAddress: direct }, headers: { 'x-forwarded-for': chain.join(', ') } };
  const client = proxyaddr(request as unknown as IncomingMessage, trust);
  return trust(client, 0) ? direct : client;
}

/** One entry of TRUSTED_PROXIES as proxy-addr takes it: an address (`normalizeIp`) or a valid CIDR network; else null. */
function trustedEntry(entry: string): string | null {
  const value = entry.trim();
  if (!value.includes('/')) return normalizeIp(value);
  try {
    const [address, bits] = ipaddr.parseCIDR(value);
    return `${address.toString()}/${bits}`;
  } catch {
    return null;
  }
}

/** Trims, unwraps IPv4-mapped IPv6 and validates an address; null when it is not an IP. */
export function normalizeIp(value: string | null | undefined): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}

/**
 * The subject a per-client rate limit counts for the client address `ip`: an IPv4 address as it is (an IPv4-mapped
 * IPv6 address, `::ffff:192.0.2.1` or `::ffff:c000:201`, counts as its IPv4 address), an IPv6 address as its /64
 * network, e.g. `2001:db8:1:2::/64`. A /64 is the smallest network an IPv6 end site or host is given (RFC 6177,
 * RFC 7421; SLAAC hosts pick their own interface id, RFC 4862 and RFC 8981), so one client can use every address of
 * its /64 and would get a fresh limit with each one. `null`, `'unknown'` and anything that is not an IP address are
 * returned as `'unknown'` (one shared subject, as before). A key given again (`2001:db8:1:2::/64`) is returned as it is.
 */
export function clientKey(ip: string | null | undefined): string {
  const value = ip?.trim().replace(/^\[|\]$/g, '') ?? '';
  // A key already (an IPv6 /64, as orders.client_key keeps it) is its own key.
  if (value.endsWith('/64') && isIP(value.slice(0, -3)) === 6) return clientKey(value.slice(0, -3));
  if (!value || !ipaddr.isValid(value) || !isIP(value.split('%')[0])) return 'unknown';
  const address = ipaddr.process(value);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
