import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { buyerState, type RequestState } from '../../../lib/request-machine';
import { requestWithPositions } from '../../services/locate';
import { liveHub, type LiveEvent } from '../../services/live-hub';
import { findSessionUser } from '../../services/sessions';
import type { LocationTrace, Position } from '../../../lib/contracts/locations';
import type { AppEnv } from '../context';
import { notFound } from '../errors';
import { requireUser, TOKEN_HEADER } from '../middleware';
import { envelope, errorEnvelope, errorResponses, jsonResponse, ok } from '../respond';
import { bodyOf, readBody } from '../validation';
import { guessingGuard } from '../consent-guard';
import { PRESENCE_SIGNALS, recordPresence } from '../../services/consent';
import { ApiError, ErrorCode } from '../errors';
import { readSessionCookie } from '../session-cookies';

/** A keep-alive comment this often, so proxies and in-app browsers keep an idle stream open (ms). */
const KEEPALIVE_MS = 15_000;
/** The session is checked again this often; a stream of a signed-out session ends (ms). */
const SESSION_CHECK_MS = 30_000;
/**
 * A stream ends after this long and the browser's EventSource reconnects by itself with `Last-Event-ID` (WHATWG HTML,
 * "Server-sent events"), which checks the session and the ownership again and bounds a stream's life (ms).
 */
const STREAM_LIFETIME_MS = 10 * 60_000;

const presenceBody = z.object({ state: z.enum(PRESENCE_SIGNALS) });

const presenceRoute = createRoute({
  method: 'post',
  path: '/spyContent/phoneLocation/{id}/presence',
  summary:
    "What the owner's page says of itself while sharing: `visible` (heartbeat), `hidden` (navigator.sendBeacon on visibilitychange/pagehide), `permission_lost`. Exempt from the website_type header (a beacon cannot set headers; the consent code is the credential)",
  request: { params: z.object({ id: z.string().min(16).max(64) }), body: bodyOf(presenceBody) },
  responses: {
    200: jsonResponse(envelope(z.object({ status: z.enum(['sharing', 'paused']) })), 'The share now'),
    404: jsonResponse(errorEnvelope, 'Unknown code'),
    409: jsonResponse(errorEnvelope, 'No share running'),
    ...errorResponses,
  },
});

const liveRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/phoneLocation/{id}/live',
  summary:
    "Server-Sent Events of one of the caller's requests: `trace` (the whole view, as GET /gpsTrace/phoneLocation/{id}) on open and after any gap, `position` for each new position (event id = position id), `state` when the request's state or its owner's page signal changes. Reconnect with Last-Event-ID to resume after a position; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: z.object({ id: z.uuid() }) },
  responses: {
    200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
    404: jsonResponse(errorEnvelope, 'No such request of the caller'),
    ...errorResponses,
  },
});

/**
 * `GET /api_f/v1/gpsTrace/phoneLocation/{id}/live`: the buyer's map receives positions and state changes as they are
 * committed (services/live-hub.ts, PostgreSQL LISTEN/NOTIFY), instead of polling. The session and the request's
 * ownership are checked when the stream opens (404 for a request that is not the caller's) and the session again every
 * SESSION_CHECK_MS; the stream ends with the session, after STREAM_LIFETIME_MS, or when the tab closes (its listener
 * is removed). With `Last-Event-ID` (a position id) only the positions after it are sent, then the current state, so a
 * reconnect neither loses nor doubles a point. Polling the GET route stays the fallback where SSE fails.
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
    return ok(c, { status: result.status === 'paused' ? ('paused' as const) : ('sharing' as const) });
  })
  .openapi(liveRoute, async (c) => {
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    const { id } = c.req.valid('param');
    // Subscribed before the view is read, so that nothing committed in between is missed: the events that arrive
    // before the stream starts are kept and replayed after the view (a position it already holds is skipped by id).
    const early: LiveEvent[] = [];
    let deliver: (event: LiveEvent) => void = (event) => early.push(event);
    const unsubscribe = await liveHub().subscribe(id, (event) => deliver(event));
    const opened = await requestWithPositions(db, userId, id).catch((error: unknown) => {
      unsubscribe();
      throw error;
    });
    if (!opened) {
      unsubscribe();
      throw notFound();
    }
    let view: typeof opened | null = opened;
    const tokens = [readSessionCookie(c), c.req.header(TOKEN_HEADER)].filter((t): t is string => !!t);
    const resumeAfter = Number(c.req.header('last-event-id') ?? '');
    // No proxy or compression may hold the events back (compression skips `no-transform`, as nginx's X-Accel-Buffering).
    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let lastId = Number.isSafeInteger(resumeAfter) && resumeAfter > 0 ? resumeAfter : 0;
      let chain = Promise.resolve();
      // Events are written one at a time, in the order they were committed.
      const send = (write: () => Promise<void>) => {
        chain = chain.then(write).catch(() => stream.abort());
        return chain;
      };
      // `resume`: only the positions after `lastId`, then the state (a reconnect); else the whole view.
      const writeTrace = async (resume = false, known?: NonNullable<typeof opened>) => {
        const trace = known ?? (await requestWithPositions(db, userId, id));
        if (!trace) return stream.abort();
        const newest = trace.positions[0]?.id ?? 0;
        if (resume) {
          // A reconnect: the positions after the last one received, oldest first, then the state.
          for (const p of trace.positions.filter((p) => p.id > lastId).reverse()) await writePosition(stream, p);
          await writeState(stream, trace);
        } else {
          await stream.writeSSE({ event: 'trace', data: JSON.stringify(trace), id: String(newest || '') });
        }
        lastId = Math.max(lastId, newest);
      };
      const onEvent = (event: LiveEvent) => {
        void send(async () => {
          if (event.k === 'p') {
            if (event.id <= lastId) return;
            lastId = event.id;
            const { k: _k, r: _r, ...position } = event;
            await writePosition(stream, position);
          } else if (event.k === 's') {
            const status = buyerState(event.status as RequestState, event.shared);
            // A new state may carry texts (how it ended, the nearest place): the whole view is sent again.
            if (status === 'stopped' || status === 'declined' || status === 'expired') return writeTrace();
            await writeState(stream, { ...event, status });
          } else {
            await writeTrace();
          }
        });
      };
      let ended = false;
      stream.onAbort(() => {
        ended = true;
        unsubscribe();
      });
      // The view read when the stream was asked for, then what was committed since, then the events as they come.
      // (Handed over through `view`, which is then emptied: the stream does not keep the view for its whole life.)
      await send(() => {
        const known = view!;
        view = null;
        return writeTrace(lastId > 0, known);
      });
      deliver = onEvent;
      for (const event of early.splice(0)) onEvent(event);
      const started = Date.now();
      let checked = started;
      while (!ended && !stream.aborted && Date.now() - started < STREAM_LIFETIME_MS) {
        await stream.sleep(KEEPALIVE_MS);
        if (ended || stream.aborted) break;
        if (Date.now() - checked >= SESSION_CHECK_MS) {
          checked = Date.now();
          const users = await Promise.all(tokens.map((t) => findSessionUser(db, t)));
          if (!users.some((u) => u?.id === userId)) break;
        }
        await send(() => stream.write(': keep-alive\n\n').then(() => undefined));
      }
      unsubscribe();
    });
  });

/** One `state` event: the state part of a trace (from a trace read, or a change the hub announced). */
function writeState(
  stream: SSEStreamingApi,
  s: Pick<LocationTrace, 'status' | 'ownerSeenAt' | 'liveSignal' | 'sharingUntil'>,
) {
  const { status, ownerSeenAt, liveSignal, sharingUntil } = s;
  return stream.writeSSE({ event: 'state', data: JSON.stringify({ status, ownerSeenAt, liveSignal, sharingUntil }) });
}

/** One `position` event, its id the position's id (the browser sends it back as Last-Event-ID). */
function writePosition(stream: SSEStreamingApi, p: Position) {
  return stream.writeSSE({ event: 'position', id: String(p.id), data: JSON.stringify(p) });
}
