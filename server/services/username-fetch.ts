import 'server-only';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';

/**
 * Outbound requests of the reverse username lookup, made so that a site list entry or a redirect cannot
 * turn the server against its own network (SSRF): every host is resolved first and refused when any of its addresses
 * is not public unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved…;
 * IPv6 addresses carrying an IPv4 address judged by it; see `isBlockedAddress`); the connection is made to the
 * address so checked (no second DNS answer); a URL whose path the URL parser would change (dot segments) is not
 * requested at all; redirects are followed by hand, each hop checked the same way. No cookies are kept, bodies are read up to
 * `MAX_BODY_BYTES`.
 */

/** Redirect hops followed before a site counts as unknown. */
export const MAX_REDIRECTS = 3;
/** Bytes of a page read for the `e_string`/`m_string` match; the rest is dropped. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A current desktop browser's user agent: sites answer robots differently (WhatsMyName's checkers do the same). */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A request refused before it left: a non-public address, a bad scheme or too many redirects. */
export class BlockedRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedRequestError';
  }
}

/**
 * The IPv4 address an IPv6 address stands for, by the standard that defines its prefix, or null: IPv4-mapped
 * `::ffff:0:0/96` (RFC 4291 §2.5.5.2), IPv4-translated `::ffff:0:0:0/96` (RFC 2765), the NAT64 well-known prefix
 * `64:ff9b::/96` (RFC 6052 §2.1) and 6to4 `2002::/16` (RFC 3056 §2: the IPv4 address is bits 16–47).
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
 * e.g. `::7f00:1`) are deprecated (RFC 4291 §2.5.5.1), no public site has one, and a host may still route them to
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

/** One keep-alive-free agent per loopback policy, its connections made through `guardedLookup`. */
function agentFor(allowLoopback: boolean): Agent {
  let agent = agents.get(allowLoopback);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowLoopback) }, pipelining: 0 });
    agents.set(allowLoopback, agent);
  }
  return agent;
}

/** Refuses a URL that is not http(s) or names a blocked address literally (IP literals skip DNS and the lookup). */
function assertAllowedUrl(url: URL, allowLoopback: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedRequestError(`scheme ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isBlockedAddress(host, allowLoopback)) throw new BlockedRequestError(`address ${host}`);
}

/**
 * The path of `raw` (an absolute http(s) URL as written: a site's template with the username filled in) as written,
 * and as the WHATWG URL parser (which `fetch` uses) makes it. They differ when the parser rewrote it: dot segments
 * (`.`, `..`, `%2e`, `%2E%2e`…) removed with the segment before them, backslashes turned into slashes, characters
 * percent-encoded. `/` stands for an empty path, as the parser writes it.
 */
export function pathAsWrittenAndParsed(raw: string): { written: string; parsed: string } {
  const afterAuthority = raw.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '');
  const written = afterAuthority.split(/[?#]/, 1)[0] || '/';
  return { written, parsed: new URL(raw).pathname };
}

/**
 * Refuses (BlockedRequestError) a URL whose path the parser would change: a username such as `..` in
 * `https://site.example/t/x/{account}/profile` would otherwise become a request for `https://site.example/t/profile`,
 * another page than the site's entry describes (URL Standard, path state: dot segments are resolved).
 */
export function assertPathUnchanged(raw: string): void {
  const { written, parsed } = pathAsWrittenAndParsed(raw);
  if (written !== parsed) throw new BlockedRequestError(`the path ${written} would be requested as ${parsed}`);
}

/** Reads at most `MAX_BODY_BYTES` of a response body as UTF-8 text, then stops the download. */
async function readLimited(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

export type SiteRequest = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Statuses that are answers in themselves (the site's `e_code`, `m_code`): a redirect with one is not followed. */
  keepStatuses: number[];
};

/**
 * Makes `request` under the guard and returns the final status and up to `MAX_BODY_BYTES` of its body. A 3xx
 * with a Location and a status not in `keepStatuses` is followed (at most `MAX_REDIRECTS` hops; 303, and 301/302
 * after a POST, continue as GET). `beforeRequest(hop)` is awaited just before each request leaves (hop 0 the first,
 * then each redirect hop); it may throw to refuse it (the service-wide request budget), and that error propagates. Throws
 * BlockedRequestError for a URL whose path the parser would change (`assertPathUnchanged`), a refused address or
 * too many hops, and the network's or `signal`'s error otherwise (the caller's time-out aborts the signal).
 */
export async function guardedRequest(
  request: SiteRequest,
  options: { signal: AbortSignal; allowLoopback: boolean; beforeRequest?: (hop: number) => Promise<void> },
): Promise<{ status: number; body: string; url: string }> {
  assertPathUnchanged(request.url);
  let url = new URL(request.url);
  let method = request.method;
  let body = request.body;
  for (let hop = 0; ; hop++) {
    assertAllowedUrl(url, options.allowLoopback);
    await options.beforeRequest?.(hop);
    const res = await fetch(url, {
      method,
      headers: {
        'user-agent': BROWSER_USER_AGENT,
        accept: 'text/html,application/json;q=0.9,*/*;q=0.8',
        ...request.headers,
      },
      body,
      redirect: 'manual',
      signal: options.signal,
      dispatcher: agentFor(options.allowLoopback),
    });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location && !request.keepStatuses.includes(res.status)) {
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new BlockedRequestError('too many redirects');
      url = new URL(location, url);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return {
      status: res.status,
      body: await readLimited(res.body as ReadableStream<Uint8Array> | null),
      url: url.href,
    };
  }
}
