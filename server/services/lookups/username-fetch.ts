import 'server-only';
import { isIP } from 'node:net';
import { fetch } from 'undici';
import { BlockedRequestError, isBlockedAddress, publicOnlyAgent } from '../../net/public-address';

/**
 * Outbound requests of the reverse username lookup, made so that a site list entry or a redirect cannot
 * turn the server against its own network (SSRF): every host is resolved first and refused when any of its addresses
 * is not public unicast (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved…;
 * IPv6 addresses carrying an IPv4 address judged by it; server/net/public-address.ts `isBlockedAddress`); the connection is made to the
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
      dispatcher: publicOnlyAgent(options.allowLoopback),
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
