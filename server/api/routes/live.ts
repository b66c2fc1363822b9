import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import {
  PRESENCE_SIGNALS,
  canWatch,
  openLiveStream,
  openPeopleStream,
  peopleOf,
  recordPresence,
} from '../../services/locate';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import { requireUser, sessionTokens } from '../middleware';
import { BAD_INPUT, SIGNED_OUT, SMALL_ANSWER, envelope, fails, jsonResponse, ok } from '../respond';
import { bodyOf, readBody } from '../validation';
import { guessingGuard } from '../consent-guard';
import { ApiError, ErrorCode } from '../errors';
import { presenceAnswerSchema, type PresenceAnswer } from '../../../lib/contracts/consent';
import { PEOPLE_MAX, peopleSchema } from '../../../lib/contracts/locations';
import type { Context } from 'hono';
import type { LiveStream } from '../../services/locate';

const presenceBody = z.object({ state: z.enum(PRESENCE_SIGNALS) });

const presenceRoute = createRoute({
  method: 'post',
  path: '/spyContent/phoneLocation/{id}/presence',
  summary:
    "What the owner's page says of itself while sharing: `visible` (heartbeat), `hidden` (navigator.sendBeacon on visibilitychange/pagehide), `permission_lost`. Exempt from the website_type header (a beacon cannot set headers; the consent code is the credential)",
  request: { params: z.object({ id: z.string().min(16).max(64) }), body: bodyOf(presenceBody) },
  responses: {
    200: jsonResponse(envelope(presenceAnswerSchema), "The share now: its state, its end, the requester's ask"),
    ...fails({ 404: 'Unknown code', 409: 'No share running', ...BAD_INPUT }),
  },
});

const liveRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/phoneLocation/{id}/live',
  summary:
    "Server-Sent Events of one of the caller's requests: `trace` (the whole view, as GET /gpsTrace/phoneLocation/{id}) on open and after any gap, `position` for each new position (event id = position id), `state` when the request's state or its owner's page signal changes, `place` (`{ place }`, as the trace's) when the named place nearest to the newest GPS fix changes. Reconnect with Last-Event-ID to resume after a position; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...fails({ 404: 'No such request of the caller', 429: 'Too many open streams', ...BAD_INPUT }),
  },
});

const peopleRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/people',
  summary: `The people map: every request of the caller that is sharing, or has shared and still has its positions (running shares first, at most ${PEOPLE_MAX}), each as its trace with only the newest GPS fix. The people stream's fallback where Server-Sent Events fail`,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(envelope(peopleSchema), 'The people on the map'),
    ...fails({ ...SIGNED_OUT }),
  },
});

const peopleLiveRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/people/live',
  summary:
    "Server-Sent Events of the people map, one connection for every person: `people` (as GET /gpsTrace/people) on open, `person` (one trace, as in `people`) when a person joins or a share ends, `position` (a new GPS fix), `state` and `place` (as the single stream's), each naming its request in `r`, and `gone` (`{ r }`) when a person leaves the map (their positions were deleted). No event ids: a reconnect gets `people` again",
  middleware: [requireUser] as const,
  responses: {
    200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...fails({ ...SIGNED_OUT, 429: 'Too many open streams' }),
  },
});

/**
 * Serves the opened stream `live` with Hono's streamSSE until it ends (the tab closes, the session ends, its lifetime
 * passes): the header fields that keep proxies and compression from holding events back, and a client gone while it
 * opened frees its slots at once (204).
 */
function serveStream(c: Context<AppEnv>, live: LiveStream, endsBy: Date | undefined) {
  if (c.req.raw.signal.aborted) {
    live.close();
    return c.body(null, 204);
  }
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => live.close());
    live.start(
      {
        write: (chunk) => void stream.write(chunk).catch(() => live.close()),
        end: () => void stream.close().catch(() => {}),
        buffered: () => 0,
        abort: () => stream.abort(),
      },
      endsBy,
    );
    await live.closed;
  });
}

/** The header fields of every event stream: no proxy or compression may hold the events back. */
function streamHeaders(c: Context<AppEnv>): void {
  // Compression skips `no-transform`, as nginx's X-Accel-Buffering.
  c.header('Cache-Control', 'no-cache, no-transform');
  c.header('X-Accel-Buffering', 'no');
}

/**
 * `GET /api_f/v1/gpsTrace/phoneLocation/{id}/live`: the buyer's map receives positions and state changes as they are
 * committed (services/locate/live-hub.ts, PostgreSQL LISTEN/NOTIFY), instead of polling. The session and the request's
 * ownership are checked when the stream opens (401 without a session, 404 for a request that is not the caller's); the
 * open streams' sessions are checked again together every SESSION_CHECK_MS, and a stream ends with its session, after
 * STREAM_LIFETIME_MS, or when the tab closes (its listener is removed): services/locate/live-streams.ts. With
 * `Last-Event-ID` (a position id) only the positions after it are sent, then the current state, so a reconnect neither
 * loses nor doubles a point. Polling the GET route stays the fallback where SSE fails. One process holds at most
 * `streamCaps()` streams per session token, account and client address: past one, 429 `Api.tooManyStreams` with
 * Retry-After. A sign-out or revocation ends the session's streams at once, its absolute expiry too. `HEAD` answers
 * the header fields (200, or 401/404 as the GET) and opens no stream.
 *
 * Under `npm start` the Node server answers a stream it can open itself, without this route (server/api/live-node.ts,
 * docs/decisions/0014-live-streams-on-the-node-server.md); this route answers the others (errors included) and every
 * stream under `next dev` and `next start`.
 */
export const liveApi = new OpenAPIHono<AppEnv>()
  .openapi(presenceRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { state } = readBody(c, presenceBody);
    const db = await c.var.db();
    const result = await guessingGuard(c.get('clientIp'), async () => {
      const answer = await recordPresence(db, id, state);
      return 'error' in answer && answer.error === 'not_found' ? null : answer;
    });
    if ('error' in result) throw new ApiError(409, ErrorCode.conflict, 'Api.notSharing');
    c.header('Cache-Control', SMALL_ANSWER);
    return ok(c, result satisfies PresenceAnswer);
  })
  .openapi(liveRoute, async (c) => {
    const user = c.get('user')!;
    const requestId = c.req.valid('param').id;
    const db = await c.var.db();
    streamHeaders(c);
    // HEAD (which Hono routes to this GET handler) answers the stream's header fields and opens nothing: a stream
    // opened for a HEAD would have its body dropped and never be closed (RFC 9110, section 9.3.2).
    if (c.req.method === 'HEAD') {
      if (!(await canWatch(db, user.id, requestId))) throw notFound();
      return c.body(null, 200, { 'Content-Type': 'text/event-stream' });
    }
    const live = await openLiveStream(db, {
      userId: user.id,
      tokens: sessionTokens(c),
      requestId,
      lastEventId: c.req.header('last-event-id') ?? null,
      clientIp: c.get('clientIp') ?? null,
    });
    if (!live) throw notFound();
    return serveStream(c, live, user.endsBy);
  })
  .openapi(peopleRoute, async (c) => {
    const user = c.get('user')!;
    c.header('Cache-Control', 'no-store');
    return ok(c, { people: await peopleOf(await c.var.db(), user.id) });
  })
  .openapi(peopleLiveRoute, async (c) => {
    const user = c.get('user')!;
    streamHeaders(c);
    // HEAD opens nothing (as the single stream's).
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'Content-Type': 'text/event-stream' });
    const live = await openPeopleStream(await c.var.db(), {
      userId: user.id,
      tokens: sessionTokens(c),
      lastEventId: null,
      clientIp: c.get('clientIp') ?? null,
    });
    return serveStream(c, live, user.endsBy);
  });
