import 'server-only';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'hono/utils/cookie';
import { getDb } from '../db/client';
import { describeError } from '../observability/describe-error';
import { log } from '../observability/log';
import { metrics } from '../observability/metrics';
import { env } from '../env';
import { isDraining } from '../lifecycle';
import { resolveClientIp } from '../services/client-ip';
import { openLiveStream, openPeopleStream } from '../services/locate';
import { RateLimitedError } from '../services/rate-limit';
import { sessionUserOf } from '../services/accounts';
import { TOKEN_HEADER } from './middleware';
import { sessionCookieName } from './session-cookies';

/** The live route's path (routes/live.ts `liveRoute`), with or without the trailing slash; group 1 is the request id. */
const LIVE_PATH =
  /^\/api_f\/v1\/gpsTrace\/phoneLocation\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/live\/?$/;

/**
 * The path of `url` as the router compares it: percent-encoded unreserved characters decoded (RFC 3986, section 2.3:
 * `%6c` and `l` are the same), then dot segments removed by the WHATWG URL parser (`/x/../` and `%2e%2e`). So every
 * spelling of the live route that Next would route to the API's live route is served here, with the same caps and
 * the slow-reader end, and none goes around them. A URL that does not parse is returned as it came.
 */
export function canonicalPath(url: string): string {
  const decoded = url.split('?')[0].replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : encoded;
  });
  try {
    return new URL(decoded, 'http://localhost').pathname;
  } catch {
    return decoded;
  }
}

/** The people map's stream (routes/live.ts `peopleLiveRoute`), with or without the trailing slash. */
const PEOPLE_PATH = /^\/api_f\/v1\/gpsTrace\/people\/live\/?$/;

/** A request id a client or proxy may give in `X-Request-Id` (hono/request-id's check, with the API's 64 characters). */
const REQUEST_ID = /^[\w=-]{1,64}$/;

/** The route names the request log and metrics give these streams, as Hono names the routes. */
const ROUTE = '/api_f/v1/gpsTrace/phoneLocation/:id/live';
const PEOPLE_ROUTE = '/api_f/v1/gpsTrace/people/live';

/**
 * The Node server's own path for the buyer's live stream (docs/decisions/0014-live-streams-on-the-node-server.md):
 * `GET /api_f/v1/gpsTrace/phoneLocation/{id}/live` and the people map's `GET /api_f/v1/gpsTrace/people/live` answered
 * on the Node request and response themselves, without
 * a Next.js route-handler request kept open for the stream's whole life (bench/live-report.md: memory per open stream).
 *
 * Only a stream that can open is answered here: a GET of that path (any spelling of it: `canonicalPath`) whose session tokens (the session cookie and/or
 * the `_chamspy_token` header) name one unrestricted user, for a request of that user. Then the answer is 200
 * `text/event-stream` with the same events as the API route (services/locate/live-streams.ts), and `true` is returned
 * once the headers are out. Anything else returns `false` before a byte is written, and the caller hands the request to
 * Next, whose API route gives the answer (401, 403, 404, 405, the error envelope in the caller's language). A
 * failure while opening also returns `false` (the route then answers, or fails, the usual way); it never throws. A
 * refused open costs its checks twice (here, then in the route): refusals are rare, streams are not.
 */
export async function serveLiveStream(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET') return false;
  const path = canonicalPath(req.url ?? '');
  const match = LIVE_PATH.exec(path);
  const people = !match && PEOPLE_PATH.test(path);
  if (!match && !people) return false;
  const route = people ? PEOPLE_ROUTE : ROUTE;
  const started = performance.now();
  let live: Awaited<ReturnType<typeof openLiveStream>> = null;
  try {
    const header = req.headers[TOKEN_HEADER.toLowerCase()];
    const name = sessionCookieName('buyer');
    const cookie = req.headers.cookie ? parse(req.headers.cookie, name)[name] : undefined;
    const tokens = [cookie, typeof header === 'string' ? header : undefined].filter((t): t is string => !!t);
    if (tokens.length === 0) return false;
    const db = await getDb();
    const user = await sessionUserOf(db, tokens);
    if (!user || user.restricted) return false;
    const lastEventId = req.headers['last-event-id'];
    const opening = {
      userId: user.id,
      tokens,
      lastEventId: typeof lastEventId === 'string' ? lastEventId : null,
      clientIp: resolveClientIp(req.socket.remoteAddress, header0(req, 'x-forwarded-for'), env().TRUSTED_PROXIES),
    };
    live = match
      ? await openLiveStream(db, { ...opening, requestId: match[1].toLowerCase() })
      : await openPeopleStream(db, { ...opening, lastEventId: null });
    if (!live) return false;
    const stream = live;
    if (res.destroyed || req.socket.destroyed) {
      stream.close();
      return true;
    }
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      // No proxy or compression may hold the events back (as the API route: no-transform, X-Accel-Buffering).
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': requestId,
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.on('close', () => stream.close());
    stream.start(
      {
        write: (chunk) => void res.write(chunk),
        // Ended for a shutdown: the connection closes too, so the browser's reconnect opens a new one elsewhere.
        end: () => res.end(() => (isDraining() ? req.socket.end() : undefined)),
        buffered: () => res.writableLength,
        abort: () => res.destroy(),
      },
      user.endsBy,
    );
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const m = metrics();
    m.httpRequests.inc({ method: 'GET', route, status: '200' });
    m.httpDuration.observe({ method: 'GET', route }, ms / 1000);
    log().info({ reqId: requestId, method: 'GET', route, status: 200, ms, server: 'node' }, 'request');
    return true;
  } catch (error) {
    if (res.headersSent) return true;
    live?.close();
    // A cap reached: the API route answers the 429 in the caller's language (its own check refuses as this one did).
    if (error instanceof RateLimitedError) return false;
    log().warn({ route, err: describeError(error) }, 'live stream not opened on the Node server; handed to Next');
    return false;
  }
}

/** The first value of header `name` (Node joins repeated ones, except a few, with commas). */
function header0(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The key under which the web process offers `serveLiveStream` to scripts/start.mjs (set in server/start.ts; the
 * script names the same `Symbol.for` key).
 */
export const LIVE_STREAM_SERVER = Symbol.for('app.liveStreamServer');
