import 'server-only';
import type { Db } from '../../db/client';
import { buyerState, type RequestState } from '../../../lib/request-machine';
import type { LocationTrace, Position } from '../../../lib/contracts/locations';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';
import { isDraining } from '../../lifecycle';
import { liveHub } from './live-hub';
import type { LiveEvent } from './live-notices';
import { requestWithPositions } from './buyer-side';
import { liveReads } from './live-reads';
import { nearestPlace } from './places';
import {
  MAX_BUFFERED_BYTES,
  RESUME_RETRY_MS,
  STREAM_LIFETIME_MS,
  liveStateOfChange,
  placeKeyOf,
  sseEvent,
  type LiveScope,
  type LiveSink,
} from './live-events';
import { streams, type OpenStream } from './open-streams';
import { streamSlots } from './live-slots';
import { peopleIds, personOf } from './people';

/** What a stream keeps of each request it shows. */
type Watched = { lastId: number; placeKey: string | null; polling: boolean; unsubscribe: () => void };

/**
 * One buyer's live map as Server-Sent Events (WHATWG HTML, "Server-sent events"): one request's, or the people map of
 * every request of the account (docs/features.md "The people map"; what each shows: ./live-events.ts `LiveScope`),
 * whatever carries the bytes: the API's route (server/api/routes/live.ts) or the Node server's own path for the same
 * URL (server/api/live-node.ts, docs/decisions/0014). Opened by ./live-open.ts (which has read the view), started
 * with a sink; every open stream is in `streams` (./open-streams.ts), which keeps them alive together.
 */
export class LiveStream implements OpenStream {
  private sink: LiveSink | null = null;
  private chain: Promise<void> = Promise.resolve();
  private early: LiveEvent[] | null = [];
  private view: LocationTrace[] | null = null;
  private ended = false;
  private done!: () => void;
  private watched = new Map<string, Watched>();
  private expiry: NodeJS.Timeout | null = null;
  readonly startedAt = Date.now();
  /** Resolves when the stream has ended, whichever side ended it. */
  readonly closed = new Promise<void>((resolve) => (this.done = resolve));

  constructor(
    private readonly db: Db,
    readonly userId: string,
    readonly tokens: readonly string[],
    readonly scope: LiveScope,
    private readonly resumeAfter: number,
    readonly tokenHashes: readonly string[],
    private readonly slots: readonly string[],
  ) {}

  /** The requests this stream shows. */
  requestIds(): string[] {
    return [...this.watched.keys()];
  }

  private get people(): boolean {
    return this.scope.kind === 'people';
  }

  /** Subscribes to request `id` at the hub before its view is read, so nothing committed in between is missed. */
  async watch(id: string): Promise<void> {
    if (this.watched.has(id) || this.ended) return;
    const w: Watched = { lastId: this.people ? 0 : this.resumeAfter, placeKey: null, polling: false, unsubscribe() {} };
    this.watched.set(id, w);
    const unsubscribe = await liveHub().subscribe(id, (event) => this.onEvent(event));
    if (this.watched.get(id) === w) w.unsubscribe = unsubscribe;
    else unsubscribe();
  }

  private unwatch(id: string): void {
    this.watched.get(id)?.unsubscribe();
    this.watched.delete(id);
  }

  /** Sets the view read after subscribing (the events that arrived meanwhile are kept and replayed after it). */
  setView(view: LocationTrace[]): void {
    this.view = view;
  }

  /**
   * Starts writing to `sink`: the view read when the stream was asked for (for one request's reconnect only the
   * positions after `Last-Event-ID` and the state), then what was committed since, then the events as they come.
   */
  start(sink: LiveSink, sessionExpiresAt?: Date): void {
    if (this.ended) return sink.end();
    this.sink = sink;
    streams().add(this);
    // A session that expires before the stream's lifetime ends it then, not at the next session check.
    const left = (sessionExpiresAt?.getTime() ?? Infinity) - Date.now();
    if (left < STREAM_LIFETIME_MS) this.expiry = setTimeout(() => this.close(), Math.max(0, left)).unref();
    const view = this.view ?? [];
    this.view = null; // the stream does not keep the view for its whole life
    this.send(async () => {
      if (this.people) {
        for (const person of view) this.noteSent(person);
        this.write(sseEvent('people', { people: view }));
      } else if (view[0]) await this.writeTrace(view[0].id, this.resumeAfter > 0, view[0]);
    });
    const early = this.early ?? [];
    this.early = null;
    for (const event of early) this.onEvent(event);
    // Opened on a process that is shutting down (a balancer not yet told): the view, then back in a moment elsewhere.
    if (isDraining()) this.send(async () => this.closeForRestart());
  }

  /** Ends the stream (idempotent): frees its listeners and ends the response. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.early = null;
    if (this.expiry) clearTimeout(this.expiry);
    for (const id of [...this.watched.keys()]) this.unwatch(id);
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

  /**
   * A keep-alive comment, or the end of a stream too old or whose client stopped reading; the people map also reads
   * who is on it, so that a share that began since joins it and one whose positions were deleted leaves it.
   */
  upkeep(now: number): void {
    if ((this.sink?.buffered() ?? 0) > MAX_BUFFERED_BYTES) {
      // A client that does not read: drop the connection and what is queued on it, not end it politely.
      this.sink?.abort?.();
      this.close();
    } else if (now - this.startedAt >= STREAM_LIFETIME_MS) this.close();
    else {
      this.send(async () => this.write(': keep-alive\n\n'));
      if (this.people) this.send(() => this.refreshPeople());
    }
  }

  private write(chunk: string): void {
    if (!this.ended) this.sink?.write(chunk);
  }

  /** One event of request `r`: on the people map its data names the request and it has no id. */
  private emit(event: string, data: object, r: string, id?: string): void {
    this.write(this.people ? sseEvent(event, { r, ...data }) : sseEvent(event, data, id));
  }

  /** Events are written one at a time, in the order they were committed. */
  private send(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'stream ended by an error');
      this.close();
    });
  }

  /** Remembers what a whole view of a request told the client: its newest position and its place. */
  private noteSent(trace: LocationTrace): void {
    const w = this.watched.get(trace.id);
    if (!w) return;
    w.lastId = Math.max(w.lastId, ...trace.positions.map((p) => p.id));
    w.placeKey = placeKeyOf(trace.place);
  }

  /**
   * Sends every position of request `r` after the last one sent, oldest first (read 100 at a time until none is left;
   * the people map takes GPS fixes only), then names the place if a GPS fix came.
   */
  private async writeNewPositions(r: string, w: Watched): Promise<void> {
    let gps: Position | undefined;
    for (;;) {
      const after = await liveReads().positionsAfter(r, w.lastId);
      for (const position of after) {
        if (position.id <= w.lastId) continue;
        w.lastId = position.id;
        if (this.people && position.source !== 'gps') continue;
        this.emit('position', position, r, String(position.id));
        if (position.source === 'gps') gps = position;
      }
      if (after.length < 100 || this.ended) break;
    }
    if (gps) await this.namePlace(r, w, gps);
  }

  /** The place nearest to the newest GPS fix, as the trace names it, sent whenever it changes (no reload needed). */
  private async namePlace(r: string, w: Watched, fix: Pick<Position, 'latitude' | 'longitude'>): Promise<void> {
    const place = await nearestPlace(fix.latitude, fix.longitude);
    const key = placeKeyOf(place);
    if (key === w.placeKey) return;
    w.placeKey = key;
    this.emit('place', { place }, r);
  }

  /**
   * Request `r`'s whole view again (`known`, or read now): on one request's map, `trace` (or, to `resume`, only the
   * positions after the last sent, then the state and the place); on the people map, `person`. A request that is gone
   * ends one request's stream, and leaves the people map (`gone`).
   */
  private async writeTrace(r: string, resume = false, known?: LocationTrace): Promise<void> {
    const w = this.watched.get(r);
    const trace =
      known ??
      (this.people ? await personOf(this.db, this.userId, r) : await requestWithPositions(this.db, this.userId, r));
    if (!trace || !w) return this.people ? this.leave(r) : this.close();
    // Positions come newest first by recording time; the event id to resume after is the largest.
    const newest = trace.positions.reduce((max, p) => Math.max(max, p.id), 0);
    if (this.people) this.write(sseEvent('person', trace));
    else if (resume) {
      for (const p of trace.positions.filter((p) => p.id > w.lastId).reverse())
        this.emit('position', p, r, String(p.id));
      this.emit('state', liveStateOfChange(trace), r);
      this.emit('place', { place: trace.place }, r);
    } else this.write(sseEvent('trace', trace, String(newest || '')));
    w.lastId = Math.max(w.lastId, newest);
    w.placeKey = placeKeyOf(trace.place);
  }

  /** Request `r` left the people map (its positions were deleted, or it is gone). */
  private leave(r: string): void {
    if (!this.watched.has(r)) return;
    this.unwatch(r);
    this.write(sseEvent('gone', { r }));
  }

  /** The people map reads who is on it: those who joined are sent whole, those who left are said gone. */
  private async refreshPeople(): Promise<void> {
    const now = await peopleIds(this.db, this.userId);
    for (const r of this.requestIds()) if (!now.includes(r)) this.leave(r);
    for (const r of now) {
      if (this.watched.has(r) || this.ended) continue;
      await this.watch(r);
      await this.writeTrace(r);
    }
  }

  private onEvent(event: LiveEvent): void {
    if (this.ended) return;
    if (this.early) {
      this.early.push(event);
      return;
    }
    const r = event.r;
    const w = this.watched.get(r);
    if (!w) return;
    if (event.k === 'poll') {
      if (w.polling) return;
      w.polling = true;
    }
    this.send(async () => {
      if (!this.watched.has(r)) return;
      if (event.k === 's') {
        const status = buyerState(event.status as RequestState, event.shared);
        // A new state may carry texts (how it ended, the nearest place): the whole view is sent again.
        if (status === 'stopped' || status === 'declined' || status === 'expired') return this.writeTrace(r);
        this.emit('state', liveStateOfChange({ ...event, status }), r);
      } else if (event.k === 'n') {
        // The broker says the request has positions up to `id`: read those after the last one sent.
        if (event.id > w.lastId) await this.writeNewPositions(r, w);
      } else if (event.k === 'seen') {
        // A heartbeat: the request's state as it is now (what the owner's page last said, and when).
        await this.writeState(r);
      } else if (event.k === 'poll') {
        // The hub hears no notification: what came after the last position, then the state (light reads; a poll
        // still waiting in this stream's queue makes another one needless).
        try {
          await this.writeNewPositions(r, w);
          await this.writeState(r);
        } finally {
          w.polling = false;
        }
      } else {
        await this.writeTrace(r);
      }
    });
  }

  /** Request `r`'s state as it is now, read by its primary key with the other streams' (./live-reads.ts). */
  private async writeState(r: string): Promise<void> {
    const now = await liveReads().stateOf(r);
    if (now) this.emit('state', liveStateOfChange(now), r);
  }
}
