import 'server-only';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';

/**
 * Outbound requests of the reverse username lookup (issue 15 §2), made so that a site list entry or a redirect cannot
 * turn the server against its own network (SSRF): every host is resolved first and refused when any of its addresses
 * is not public unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved…,
 * IPv4-mapped IPv6 judged as IPv4); the connection is made to the address so checked (no second DNS answer);
 * redirects are followed by hand, each hop checked the same way. No cookies are kept, bodies are read up to
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
 * True when `ip` may not be contacted: anything but public unicast; with `allowLoopback` (tests only) 127.0.0.0/8 and
 * ::1 are let through. An unparsable address is blocked.
 */
export function isBlockedAddress(ip: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(ip)) return true;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
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
 * after a POST, continue as GET). Throws BlockedRequestError for a refused address or too many hops, and the
 * network's or `signal`'s error otherwise (the caller's time-out aborts the signal).
 */
export async function guardedRequest(
  request: SiteRequest,
  options: { signal: AbortSignal; allowLoopback: boolean },
): Promise<{ status: number; body: string; url: string }> {
  let url = new URL(request.url);
  let method = request.method;
  let body = request.body;
  for (let hop = 0; ; hop++) {
    assertAllowedUrl(url, options.allowLoopback);
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
