import 'server-only';
import { getDb, type Db } from '../../db/client';
import { env } from '../../env';
import { buyerState, type RequestState } from '../../../lib/request-machine';
import { liveStateSchema, type LiveState, type LocationTrace, type Position } from '../../../lib/contracts/locations';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';
import { metrics } from '../../observability/metrics';
import { isDraining } from '../../lifecycle';
import { clientKey } from '../client-ip';
import { liveHub, type LiveEvent } from './live-hub';
import { liveStateOf, positionsAfter, requestWithPositions } from './buyer-side';
import { nearestPlace } from './places';
import { RateLimitedError } from '../rate-limit';
import { liveSessionOwners } from '../accounts';
import { sha256 } from '../tokens';
import { WATCH_MARK_MS, markWatched } from './watchers';

// The buyer's live map: one request's positions and state changes as Server-Sent Events (WHATWG HTML, "Server-sent
// events"), whatever carries the bytes: the API's route (server/api/routes/live.ts, Hono's streamSSE) or the Node
// server's own path for the same URL (server/api/live-node.ts; docs/decisions/0014-live-streams-on-the-node-server.md).

/** A keep-alive comment this often, so proxies and in-app browsers keep an idle stream open (ms). */
export const KEEPALIVE_MS = 15_000;
/** The sessions of the open streams are checked again this often; a stream of a signed-out session ends (ms). */
export const SESSION_CHECK_MS = 30_000;
/**
 * A stream ends after this long and the browser's EventSource reconnects by itself with `Last-Event-ID`, which checks
 * the session and the ownership again and bounds a stream's life (ms).
 */
export const STREAM_LIFETIME_MS = 10 * 60_000;
/**
 * A client that has not taken this many bytes of its stream is too slow to follow (or gone without a close): the
 * stream ends, and the browser's reconnect with `Last-Event-ID` sends what it missed (bytes). Applied where the sink
 * can tell what is queued (the Node server's path); Hono's stream does not say, so under `next start` and `next dev`
 * a slow client's events wait in memory until the stream's lifetime ends it.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * How many streams one process holds open at once for one session token, one account and one client address (its
 * `clientKey`: an IPv6 client's /64): the settings LIVE_STREAMS_PER_SESSION (4), LIVE_STREAMS_PER_ACCOUNT (8) and
 * LIVE_STREAMS_PER_ADDRESS (24). A map needs one stream, two while a tab reloads; a buyer with a few tabs or devices
 * stays well within. Past a cap the open is refused with 429 `Api.tooManyStreams` and Retry-After STREAM_RETRY_S,
 * before anything is subscribed or read (docs/decisions/0017-live-stream-ceilings.md). The address cap is higher for
 * carrier-grade NAT, where many phones share one address.
 */
export function streamCaps(): { session: number; account: number; address: number } {
  const e = env();
  return {
    session: e.LIVE_STREAMS_PER_SESSION,
    account: e.LIVE_STREAMS_PER_ACCOUNT,
    address: e.LIVE_STREAMS_PER_ADDRESS,
  };
}
/** The Retry-After of a refused open (s): an EventSource retries by itself; a closed tab frees its slot at once. */
export const STREAM_RETRY_S = 30;

/** While a process shuts down its streams end this many at a time (`OpenStreams.drain`)… */
export const DRAIN_BATCH = 250;
/** …with this pause between batches (ms), so the others are not all asked to take them back at once. */
export const DRAIN_PAUSE_MS = 100;
/**
 * The reconnection time a stream ended by a shutdown tells its browser (the `retry:` field, WHATWG HTML "Server-sent
 * events"): between RESUME_RETRY_MS and twice it, spread so the reconnects do not all arrive at once (ms).
 */
export const RESUME_RETRY_MS = 1_000;

/** Where a stream's bytes go: the Node response or Hono's stream. */
export type LiveSink = {
  /** Queues `chunk` (UTF-8 text of whole events) for the client. */
  write(chunk: string): void;
  /** Ends the response. */
  end(): void;
  /** Bytes queued and not yet taken by the client. */
  buffered(): number;
  /** Drops the connection at once, with what is queued on it (a client too slow to follow); optional. */
  abort?(): void;
};

/** Who opens a stream of which request, and where it resumes. */
export type LiveStreamOpening = {
  /** The signed-in buyer (the session check already done by the caller). */
  userId: string;
  /** The session tokens the request carried (cookie and/or app header): the stream ends when one is signed out. */
  tokens: readonly string[];
  /** The location request's id (uuid). */
  requestId: string;
  /** The `Last-Event-ID` header (a position id) of a reconnect, or null. */
  lastEventId: string | null;
  /** The client's address (services/client-ip.ts `resolveClientIp`), for the per-address cap; null when unknown. */
  clientIp: string | null;
};

/**
 * The slots of the open (and opening) streams of this process, counted per session token, account and client address
 * (`streamCaps`). Taking a slot checks and counts in one synchronous step, so concurrent opens in one process cannot
 * pass a cap together; each process counts its own, as each holds its own sockets and listeners.
 */
class StreamSlots {
  private counts = new Map<string, number>();

  /** The keys one opening counts under (no address key when the address is unknown: it would pool every such client). */
  static keysOf(opening: Pick<LiveStreamOpening, 'userId' | 'clientIp'>, tokenHashes: readonly string[]): string[] {
    return [
      ...tokenHashes.map((h) => `s:${h}`),
      `u:${opening.userId}`,
      ...(opening.clientIp ? [`a:${clientKey(opening.clientIp)}`] : []),
    ];
  }

  /** Takes one slot under each key, or throws RateLimitedError (429) naming none of them when a cap is reached. */
  take(keys: readonly string[]): void {
    const caps = streamCaps();
    for (const key of keys) {
      const cap = key[0] === 's' ? caps.session : key[0] === 'u' ? caps.account : caps.address;
      if ((this.counts.get(key) ?? 0) >= cap) throw new RateLimitedError(STREAM_RETRY_S, 'Api.tooManyStreams');
    }
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Gives back the slots `take` took. */
  give(keys: readonly string[]): void {
    for (const key of keys) {
      const left = (this.counts.get(key) ?? 0) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
  }

  /** Slots taken under `key` (tests). */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

const SLOTS_KEY = Symbol.for('app.liveStreamSlots');

/** This process's stream slots (one per process, shared by every module instance, as the hub). */
export function streamSlots(): StreamSlots {
  const g = globalThis as unknown as Record<symbol, StreamSlots | undefined>;
  return (g[SLOTS_KEY] ??= new StreamSlots());
}

/** One `event:` block of an event stream (`id` optional; `data` on one line: JSON has no raw newline). */
export function sseEvent(event: string, data: unknown, id?: string): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n${id === undefined ? '' : `id: ${id}\n`}\n`;
}

/**
 * One `state` event: the state part of a trace (from a trace read, or a change the hub announced), held to its contract
 * (lib/contracts/locations.ts `liveStateSchema`) with every time in the REST path's form, ISO 8601 UTC
 * (`toISOString`): the trigger's JSON writes PostgreSQL's own (`…+00:00`). Throws on a value outside the contract.
 */
function stateEvent(s: Omit<LiveState, 'moreTime'> & Partial<Pick<LiveState, 'moreTime'>>): string {
  const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
  const state = liveStateSchema.parse({
    status: s.status,
    ownerSeenAt: iso(s.ownerSeenAt),
    liveSignal: s.liveSignal,
    sharingUntil: iso(s.sharingUntil),
    moreTime: s.moreTime ?? null,
  });
  return sseEvent('state', state);
}

/** What tells one named place from another (`''` for none), so a `place` event goes only when it changes. */
function placeKeyOf(place: LocationTrace['place']): string {
  return place ? `${place.name}|${place.region}|${place.country}` : '';
}

/** One `position` event, its id the position's id (the browser sends it back as Last-Event-ID). */
function positionEvent(p: Position): string {
  return sseEvent('position', p, String(p.id));
}

/**
 * One open stream of one request. Created by `openLiveStream` (which has read the view), started with a sink; every
 * open stream is in `streams`, which keeps them alive together (one timer per process, not one per stream).
 */
export class LiveStream {
  private sink: LiveSink | null = null;
  private chain: Promise<void> = Promise.resolve();
  private early: LiveEvent[] | null = [];
  /** A deaf hub's poll is waiting in this stream's queue. */
  private polling = false;
  private view: LocationTrace | null = null;
  private ended = false;
  private done!: () => void;
  private unsubscribe: () => void = () => {};
  private lastId: number;
  private expiry: NodeJS.Timeout | null = null;
  /** The place last named to this stream (`name|region|country`), so a `place` event goes only when it changes. */
  private placeKey: string | null = null;
  readonly startedAt = Date.now();
  /** Resolves when the stream has ended, whichever side ended it. */
  readonly closed = new Promise<void>((resolve) => (this.done = resolve));

  constructor(
    private readonly db: Db,
    readonly userId: string,
    readonly tokens: readonly string[],
    readonly requestId: string,
    resumeAfter: number,
    readonly tokenHashes: readonly string[],
    private readonly slots: readonly string[],
  ) {
    this.lastId = resumeAfter;
  }

  /** Subscribes to the hub before the view is read, so that nothing committed in between is missed. */
  async listen(): Promise<void> {
    this.unsubscribe = await liveHub().subscribe(this.requestId, (event) => this.onEvent(event));
  }

  /** Sets the view read after subscribing (the events that arrived meanwhile are kept and replayed after it). */
  setView(view: LocationTrace): void {
    this.view = view;
  }

  /**
   * Starts writing to `sink`: the view read when the stream was asked for (only the positions after `Last-Event-ID`
   * and the state on a reconnect), then what was committed since, then the events as they come.
   */
  start(sink: LiveSink, sessionExpiresAt?: Date): void {
    if (this.ended) return sink.end();
    this.sink = sink;
    streams().add(this);
    // A session that expires before the stream's lifetime ends it then, not at the next session check.
    const left = (sessionExpiresAt?.getTime() ?? Infinity) - Date.now();
    if (left < STREAM_LIFETIME_MS) this.expiry = setTimeout(() => this.close(), Math.max(0, left)).unref();
    const view = this.view!;
    this.view = null; // the stream does not keep the view for its whole life
    this.send(() => this.writeTrace(this.lastId > 0, view));
    const early = this.early ?? [];
    this.early = null;
    for (const event of early) this.onEvent(event);
    // Opened on a process that is shutting down (a balancer not yet told): the view, then back in a moment elsewhere.
    if (isDraining()) this.send(async () => this.closeForRestart());
  }

  /** Ends the stream (idempotent): frees its listener and ends the response. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.early = null;
    if (this.expiry) clearTimeout(this.expiry);
    this.unsubscribe();
    streamSlots().give(this.slots);
    streams().delete(this);
    try {
      this.sink?.end();
    } catch {
      // the connection is gone already
    }
    this.done();
  }

  /**
   * Ends the stream for a shutdown: first the `retry:` field with a reconnection time of RESUME_RETRY_MS to twice it,
   * so the browser's EventSource comes back in a moment (to another instance) and resumes from Last-Event-ID.
   */
  closeForRestart(): void {
    this.write(`retry: ${RESUME_RETRY_MS + Math.floor(Math.random() * RESUME_RETRY_MS)}\n\n`);
    this.close();
  }

  /** A keep-alive comment, or the end of a stream too old or whose client stopped reading. */
  upkeep(now: number): void {
    if ((this.sink?.buffered() ?? 0) > MAX_BUFFERED_BYTES) {
      // A client that does not read: drop the connection and what is queued on it, not end it politely.
      this.sink?.abort?.();
      this.close();
    } else if (now - this.startedAt >= STREAM_LIFETIME_MS) this.close();
    else this.send(async () => this.write(': keep-alive\n\n'));
  }

  private write(chunk: string): void {
    if (!this.ended) this.sink?.write(chunk);
  }

  /** Events are written one at a time, in the order they were committed. */
  private send(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'stream ended by an error');
      this.close();
    });
  }

  /**
   * Sends every position after the last one sent, oldest first (read 100 at a time until none is left), then names the
   * place if a GPS fix came.
   */
  private async writeNewPositions(): Promise<void> {
    let gps: Position | undefined;
    for (;;) {
      const after = await positionsAfter(this.db, this.requestId, this.lastId);
      for (const position of after) {
        if (position.id <= this.lastId) continue;
        this.lastId = position.id;
        this.write(positionEvent(position));
        if (position.source === 'gps') gps = position;
      }
      if (after.length < 100 || this.ended) break;
    }
    if (gps) await this.namePlace(gps);
  }

  /** The place nearest to the newest GPS fix, as the trace names it, sent whenever it changes (no reload needed). */
  private async namePlace(fix: Pick<Position, 'latitude' | 'longitude'>): Promise<void> {
    const place = await nearestPlace(fix.latitude, fix.longitude);
    const key = placeKeyOf(place);
    if (key === this.placeKey) return;
    this.placeKey = key;
    this.write(sseEvent('place', { place }));
  }

  /** `resume`: only the positions after `lastId`, then the state (a reconnect); else the whole view. */
  private async writeTrace(resume = false, known?: LocationTrace): Promise<void> {
    const trace = known ?? (await requestWithPositions(this.db, this.userId, this.requestId));
    if (!trace) return this.close();
    // Positions come newest first by recording time; the event id to resume after is the largest.
    const newest = trace.positions.reduce((max, p) => Math.max(max, p.id), 0);
    const place = trace.place;
    this.placeKey = placeKeyOf(place);
    if (resume) {
      for (const p of trace.positions.filter((p) => p.id > this.lastId).reverse()) this.write(positionEvent(p));
      this.write(stateEvent(trace));
      this.write(sseEvent('place', { place }));
    } else {
      this.write(sseEvent('trace', trace, String(newest || '')));
    }
    this.lastId = Math.max(this.lastId, newest);
  }

  private onEvent(event: LiveEvent): void {
    if (this.ended) return;
    if (this.early) {
      this.early.push(event);
      return;
    }
    if (event.k === 'poll') {
      if (this.polling) return;
      this.polling = true;
    }
    this.send(async () => {
      if (event.k === 'p') {
        if (event.id <= this.lastId) return;
        this.lastId = event.id;
        const { k: _k, r: _r, ...position } = event;
        this.write(positionEvent(position));
        if (position.source === 'gps') await this.namePlace(position);
      } else if (event.k === 's') {
        const status = buyerState(event.status as RequestState, event.shared);
        // A new state may carry texts (how it ended, the nearest place): the whole view is sent again.
        if (status === 'stopped' || status === 'declined' || status === 'expired') return this.writeTrace();
        this.write(stateEvent({ ...event, status }));
      } else if (event.k === 'n') {
        // The broker says the request has positions up to `id`: read those after the last one sent.
        if (event.id > this.lastId) await this.writeNewPositions();
      } else if (event.k === 'seen') {
        // A heartbeat: the request's state as it is now (what the owner's page last said, and when).
        const now = await liveStateOf(this.db, this.requestId);
        if (now) this.write(stateEvent(now));
      } else if (event.k === 'poll') {
        // The hub hears no notification: what came after the last position, then the state (light reads; a poll
        // still waiting in this stream's queue makes another one needless).
        try {
          await this.writeNewPositions();
          const now = await liveStateOf(this.db, this.requestId);
          if (now) this.write(stateEvent(now));
        } finally {
          this.polling = false;
        }
      } else {
        await this.writeTrace();
      }
    });
  }
}

/**
 * Opens a stream of request `requestId` for `userId`: takes its slots (`streamCaps`), subscribes, then reads the view.
 * Null when the request is not the caller's (or does not exist): the caller answers 404. Throws RateLimitedError
 * (429 `Api.tooManyStreams`) when a cap is reached, before anything is subscribed. The returned stream is not started
 * yet (`start`); a stream that is never started must be closed, which gives its slots back.
 */
export async function openLiveStream(db: Db, opening: LiveStreamOpening): Promise<LiveStream | null> {
  const resume = Number(opening.lastEventId ?? '');
  // Each token hashed once: its slot key and what a sign-out's announcement names (sessions store the same hash).
  const tokenHashes = [...new Set(opening.tokens)].map(sha256);
  const slots = StreamSlots.keysOf(opening, tokenHashes);
  streamSlots().take(slots);
  const stream = new LiveStream(
    db,
    opening.userId,
    opening.tokens,
    opening.requestId,
    Number.isSafeInteger(resume) && resume > 0 ? resume : 0,
    tokenHashes,
    slots,
  );
  try {
    await stream.listen();
    const view = await requestWithPositions(db, opening.userId, opening.requestId);
    if (view) {
      stream.setView(view);
      return stream;
    }
  } catch (error) {
    stream.close();
    throw error;
  }
  stream.close();
  return null;
}

/**
 * Whether `userId` may watch request `requestId` (its own): what a `HEAD` of the stream's URL answers, without
 * opening a stream, a listener or a slot (RFC 9110, section 9.3.2: HEAD gives the GET's header fields, no content).
 */
export async function canWatch(db: Db, userId: string, requestId: string): Promise<boolean> {
  return (await requestWithPositions(db, userId, requestId)) !== null;
}

/**
 * The open streams of this process and their upkeep, on one timer: every KEEPALIVE_MS a keep-alive comment to each
 * (or its end past STREAM_LIFETIME_MS or MAX_BUFFERED_BYTES), every WATCH_MARK_MS one UPDATE that marks their
 * requests as watched (services/locate/watchers.ts: the owner's page sends every fix while a map is open), and every
 * SESSION_CHECK_MS one query for the sessions of all of them (`liveSessionOwners`): a stream whose session ended, or
 * now names another user, ends.
 */
class OpenStreams {
  private open = new Set<LiveStream>();
  private timer: NodeJS.Timeout | null = null;
  private lastCheck = Date.now();
  private checking = false;
  private lastWatchMark = Date.now();

  get size(): number {
    return this.open.size;
  }

  add(stream: LiveStream): void {
    this.open.add(stream);
    metrics().liveStreamsOpen.set(this.open.size);
    this.timer ??= setInterval(() => void this.tick(), KEEPALIVE_MS).unref();
    // A map opened: the owner's page learns it with its next answer and sends every fix again
    // (services/locate/watchers.ts).
    void this.markWatched([stream.requestId]);
  }

  delete(stream: LiveStream): void {
    this.open.delete(stream);
    metrics().liveStreamsOpen.set(this.open.size);
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Tells the owner's pages of `requestIds` that a map of theirs is open; a failure waits for the next mark. */
  private async markWatched(requestIds: string[]): Promise<void> {
    try {
      await markWatched(await getDb(), requestIds);
    } catch (error) {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'could not mark the watched requests');
    }
  }

  /** One round of upkeep (exported for tests through `liveStreams().tick`). */
  async tick(now = Date.now()): Promise<void> {
    for (const stream of [...this.open]) stream.upkeep(now);
    if (now - this.lastWatchMark >= WATCH_MARK_MS - 1000) {
      this.lastWatchMark = now;
      void this.markWatched([...this.open].map((s) => s.requestId));
    }
    if (now - this.lastCheck < SESSION_CHECK_MS - 1000 || this.checking) return;
    this.lastCheck = now;
    this.checking = true;
    try {
      const checked = [...this.open];
      const owners = await liveSessionOwners(await getDb(), [...new Set(checked.flatMap((s) => s.tokens))]);
      for (const stream of checked) {
        if (!stream.tokens.every((t) => owners.get(t) === stream.userId)) stream.close();
      }
    } catch (error) {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'session check failed; kept the streams');
    } finally {
      this.checking = false;
    }
  }

  /**
   * Ends at once the streams opened with any of the session tokens whose SHA-256 is in `tokenHashes` (a sign-out or
   * a revocation, announced by the hub to every process: services/accounts/sessions.ts). Returns how many ended.
   */
  closeSessions(tokenHashes: readonly string[]): number {
    const ended = new Set(tokenHashes);
    let n = 0;
    for (const stream of [...this.open]) {
      if (stream.tokenHashes.some((h) => ended.has(h))) {
        stream.close();
        n++;
      }
    }
    return n;
  }

  /**
   * Ends every stream for a shutdown, `batch` at a time with `pauseMs` between batches, each told to reconnect in a
   * moment (`closeForRestart`); streams opened meanwhile end too (they end after their view: `start`), and all that
   * are left at `deadlineMs` (20 s) at once. Resolves with how many ended in batches.
   */
  async drain(batch = DRAIN_BATCH, pauseMs = DRAIN_PAUSE_MS, deadlineMs = 20_000): Promise<number> {
    let ended = 0;
    const deadline = Date.now() + deadlineMs;
    while (this.open.size > 0) {
      if (Date.now() > deadline) {
        for (const stream of [...this.open]) stream.closeForRestart();
        break;
      }
      for (const stream of [...this.open].slice(0, batch)) {
        stream.closeForRestart();
        ended++;
      }
      if (this.open.size > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return ended;
  }

  /** Ends every stream (tests). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
  }
}

const KEY = Symbol.for('app.liveStreams');

/** This process's open streams (one registry per process, shared by every module instance, as the hub). */
export function streams(): OpenStreams {
  const g = globalThis as unknown as Record<symbol, OpenStreams | undefined>;
  return (g[KEY] ??= ((open) => {
    liveHub().onSessionsEnded((hashes) => open.closeSessions(hashes));
    return open;
  })(new OpenStreams()));
}
