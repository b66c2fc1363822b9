import 'server-only';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/**
 * The rule for the addresses this server may open a connection to on a user's word (OWASP SSRF Prevention Cheat
 * Sheet: refuse internal destinations, resolve first, connect to the address checked): public unicast only. Used by
 * the reverse username lookup (./username-fetch) and the Web Push sender (../providers/push.ts, ./web-push).
 */

/** A request refused before it left: a non-public address, a bad scheme or too many redirects. */
export class BlockedRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedRequestError';
  }
}

/**
 * The IPv4 address an IPv6 address stands for, by the standard that defines its prefix, or null: IPv4-mapped
 * `::ffff:0:0/96` (RFC 4291, section 2.5.5.2), IPv4-translated `::ffff:0:0:0/96` (RFC 2765), the NAT64 well-known prefix
 * `64:ff9b::/96` (RFC 6052, section 2.1) and 6to4 `2002::/16` (RFC 3056, section 2: the IPv4 address is bits 16–47).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && p[5] === 0xffff) return v4(p[6], p[7]);
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  return null;
}

/**
 * True when `ip` may not be contacted: anything but public unicast; with `allowLoopback` (tests only) 127.0.0.0/8 and
 * ::1 are let through. An unparsable address is blocked. An IPv6 address that carries an IPv4 address (IPv4-mapped,
 * IPv4-translated, NAT64 `64:ff9b::/96`, 6to4) is judged by that IPv4 address, so `::ffff:127.0.0.1` or
 * `64:ff9b::a9fe:a9fe` cannot reach what `127.0.0.1` or `169.254.169.254` may not; on a DNS64 network, NAT64
 * addresses of public sites stay reachable. IPv4-compatible addresses (`::a.b.c.d` other than `::` and `::1`,
 * e.g. `::7f00:1`) are deprecated (RFC 4291, section 2.5.5.1), no public site has one, and a host may still route them to
 * the IPv4 address: always blocked. Other special-purpose IPv6 ranges (Teredo, the NAT64 local-use prefix
 * `64:ff9b:1::/48`, documentation…) are blocked as before by ipaddr.js's range.
 */
export function isBlockedAddress(ip: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const p = v6.parts;
    if (p.slice(0, 6).every((x) => x === 0) && !(p[6] === 0 && p[7] <= 1)) return true;
    const inner = embeddedIPv4(v6);
    if (inner) return isBlockedAddress(inner.toString(), allowLoopback);
  }
  const range = address.range();
  if (range === 'unicast') return false;
  return !(allowLoopback && range === 'loopback');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `net.connect` lookup that resolves with the system resolver and refuses hosts with any blocked address. */
function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, '');
      const blocked = addresses.find((a) => isBlockedAddress(a.address, allowLoopback));
      if (blocked || !addresses.length) {
        return callback(
          Object.assign(new BlockedRequestError(`${hostname} resolves to a non-public address`), { code: 'EBLOCKED' }),
          '',
        );
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const agents = new Map<boolean, Agent>();

/**
 * The undici dispatcher whose every connection is made through `guardedLookup`: the host is resolved, refused
 * (BlockedRequestError, `code: 'EBLOCKED'`) when any address is not public, and the connection goes to the address so
 * checked, so a DNS answer that changes between a check and the request (rebinding) cannot reach a private address.
 * IP literals skip the lookup: callers check them with `isBlockedAddress`. One keep-alive-free agent per loopback
 * policy (`allowLoopback`: tests only).
 */
export function publicOnlyAgent(allowLoopback: boolean): Agent {
  let agent = agents.get(allowLoopback);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowLoopback) }, pipelining: 0 });
    agents.set(allowLoopback, agent);
  }
  return agent;
}

/** Resolves a host name (all its addresses) as `dns.lookup` does; injectable in tests. */
export type Resolve = (hostname: string) => Promise<{ address: string }[]>;

/** The system resolver (`dns.lookup`, every address), as connections use it. */
export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * Whether `host` (a URL's `hostname`: a name, an IPv4 literal or a bracketed IPv6 literal) is public: a literal by
 * `isBlockedAddress`, a name when it resolves (`resolve`) to at least one address and none is blocked. `allowLoopback`:
 * tests only. Rejects with the resolver's error when the name cannot be resolved (the caller decides: try again later).
 */
export async function isPublicHost(
  host: string,
  allowLoopback: boolean,
  resolve: Resolve = systemResolve,
): Promise<boolean> {
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal)) return !isBlockedAddress(literal, allowLoopback);
  const addresses = await resolve(literal);
  return addresses.length > 0 && !addresses.some((a) => isBlockedAddress(a.address, allowLoopback));
}
