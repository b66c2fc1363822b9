import 'server-only';
import type { Redis } from 'ioredis';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';
import { READ_BLOCK_MS, before, noticeOf, redisConnection, streamKeyOf, type FeedNotice } from './live-redis-wire';

// The live broker's Redis engine (docs/decisions/0019-live-broker.md): one Redis Stream per location request carries
// "this request has new positions" and "its owner's page was heard from" notices, ids only, from the process that
// committed them to the processes that hold that request's open maps (Redis docs, "Redis Streams"). The writing side
// is services/locate/live-broker.ts (`RedisBroker`); the reading side is `RedisFeed`, one per process, inside its hub
// (services/locate/live-hub.ts). Works the same on Valkey, which keeps Redis's stream commands. The streams' keys,
// their entries and the connections: ./live-redis-wire.ts.

/**
 * After an `XREAD` that brought entries the reader waits this long (ms) before the next, so that what comes meanwhile
 * is read together: one `XREAD` names every stream the process holds (about 60 bytes each: 300 KB for 5,000), so at 100
 * fixes a second reading each entry on its own cost the app most of a core (bench/live-report-redis.md). At most one
 * read per READ_GATHER_MS, as the PostgreSQL engine sends at most one notice per BATCH_MS (./live-broker.ts).
 */
export const READ_GATHER_MS = 20;

/** At most this many notices read per stream in one `XREAD` (the newest of them is all a stream needs). */
const READ_COUNT = 100;

/** What a hub hears from its feed. */
export type FeedHandlers = {
  /** A notice of a held request, in stream order. */
  notice(notice: FeedNotice): void;
  /** Redis answers again after an outage: the notices sent meanwhile may be lost; read what was missed. */
  up(): void;
  /** Redis stopped answering: nothing is heard until `up`; read on a timer meanwhile. */
  down(error: unknown): void;
};

/**
 * A held request: the id of the last entry read from its stream, or null while its current end is to be read;
 * `recheck` after an outage, when the stream may have been lost with Redis's memory.
 */
type Held = { lastId: string | null; recheck: boolean; waiters: (() => void)[] };

/**
 * One process's reader of the requests' streams (Redis docs, "XREAD"): one connection blocks in `XREAD BLOCK` on the
 * streams of the requests this process holds open maps of (`hold`/`release`), each resumed after the last entry it
 * read, and hands each entry to `handlers.notice`. A new request is read from its stream's current end, which `hold`
 * waits for, so a stream that subscribes and then reads its view misses nothing in between. When the held set grows,
 * the blocked `XREAD` is ended at once from a second connection (`CLIENT UNBLOCK`, Redis docs) and issued again with
 * the new stream. While Redis does not answer the feed is `down` (`handlers.down`); when it answers again the reads
 * resume after the last ids read (from a stream's new end if Redis lost it), and `handlers.up` tells the hub to read
 * from PostgreSQL what the outage may have lost (a Redis restarted without persistence forgets its streams).
 */
export class RedisFeed {
  private readonly reader: Redis;
  private readonly waker: Redis;
  private readonly held = new Map<string, Held>();
  private status: 'starting' | 'up' | 'down' = 'starting';
  /** `CLIENT ID` of the reader's current connection (for `CLIENT UNBLOCK`); null until read on each connection. */
  private readerId: number | null = null;
  /** Counts the `XREAD`s issued; `reading` while one is on its way. */
  private generation = 0;
  private reading = false;
  private closed = false;
  private changed: (() => void) | null = null;

  /** `url`: REDIS_URL; `handlers`: the hub's. Connects at once; reads once something is held. */
  constructor(
    url: string,
    private readonly handlers: FeedHandlers,
  ) {
    this.reader = redisConnection(url, 'live-feed');
    this.waker = redisConnection(url, 'live-feed-waker');
    this.reader.on('close', () => this.lost(new Error('redis connection closed')));
    this.reader.on('ready', () => {
      this.readerId = null;
      this.wake();
    });
    void this.loop();
  }

  /** Whether Redis answers the feed (`down`: the hub reads on a timer instead). */
  get isDown(): boolean {
    return this.status === 'down';
  }

  /**
   * Reads request `requestId`'s stream from now on (called for every subscriber; one hold per request). Resolves once
   * its current end is known (later notices will be read), or at once while Redis is down (the hub then reads on a
   * timer, and again when Redis is back). Never rejects.
   */
  hold(requestId: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    let held = this.held.get(requestId);
    const fresh = !held;
    if (!held) this.held.set(requestId, (held = { lastId: null, recheck: false, waiters: [] }));
    // Held already with its end known, or Redis down: nothing to wait for.
    if (held.lastId !== null || this.status === 'down') return Promise.resolve();
    const known = new Promise<void>((resolve) => held.waiters.push(resolve));
    if (fresh) {
      this.wake();
      void this.unblock();
    }
    return known;
  }

  /** Stops reading request `requestId`'s stream (its last open map here closed); taken out at the next `XREAD`. */
  release(requestId: string): void {
    const held = this.held.get(requestId);
    this.held.delete(requestId);
    for (const resolve of held?.waiters ?? []) resolve();
  }

  /** Ends both connections (tests, shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    for (const held of this.held.values()) for (const resolve of held.waiters.splice(0)) resolve();
    this.held.clear();
    this.reader.disconnect();
    this.waker.disconnect();
  }

  /** The reader's connection was lost: down (once), every held stream's waiters released. */
  private lost(error: unknown): void {
    if (this.closed || this.status === 'down') return;
    this.status = 'down';
    this.readerId = null;
    for (const held of this.held.values()) {
      held.recheck = true;
      for (const resolve of held.waiters.splice(0)) resolve();
    }
    this.handlers.down(error);
  }

  /** Redis answers the reader: `up`, and after an outage the hub is told (`handlers.up`). */
  private answered(): void {
    if (this.status === 'up') return;
    const wasDown = this.status === 'down';
    this.status = 'up';
    if (!wasDown) return;
    log().info({ component: 'live-feed' }, 'redis answers again; live notices resume');
    this.handlers.up();
  }

  /** Wakes the loop from waiting for something to hold or for the connection. */
  private wake(): void {
    const changed = this.changed;
    this.changed = null;
    changed?.();
  }

  /** Resolves at the next `wake`, or after `ms`. */
  private nap(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.changed = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * Ends the `XREAD` now blocking (`CLIENT UNBLOCK` from the waker connection), so it is issued again with the held set
   * as it is. An unblock that arrives before the `XREAD` blocks does nothing: tried again every 5 ms while that read
   * is still on its way.
   */
  private async unblock(): Promise<void> {
    const generation = this.generation;
    for (let tries = 0; tries < 200; tries++) {
      if (this.closed || !this.reading || this.generation !== generation || this.readerId === null) return;
      try {
        if (Number(await this.waker.client('UNBLOCK', this.readerId)) === 1) return;
      } catch {
        return; // Redis does not answer: the read fails by itself
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.reader.status !== 'ready') {
        await this.nap(READ_BLOCK_MS);
        continue;
      }
      if (this.held.size === 0) {
        this.answered();
        await this.nap(READ_BLOCK_MS);
        continue;
      }
      try {
        this.readerId ??= Number(await this.reader.client('ID'));
        await this.readEnds();
        this.answered();
        if ((await this.read()) > 0) await new Promise((resolve) => setTimeout(resolve, READ_GATHER_MS));
      } catch (error) {
        if (this.closed) return;
        this.lost(error);
        await this.nap(500);
      }
    }
  }

  /**
   * Reads the current end of each held stream not read yet (one pipeline), and lets its `hold` resolve. After an
   * outage, a stream whose end is now before the last entry read (Redis restarted empty, the stream written anew) is
   * read from that end; the others resume after the last entry read.
   */
  private async readEnds(): Promise<void> {
    const fresh = [...this.held.entries()].filter(([, h]) => h.lastId === null || h.recheck);
    if (fresh.length === 0) return;
    const pipeline = this.reader.pipeline();
    for (const [id] of fresh) pipeline.xrevrange(streamKeyOf(id), '+', '-', 'COUNT', 1);
    const replies = (await pipeline.exec()) ?? [];
    fresh.forEach(([id, held], i) => {
      const [error, entries] = replies[i] ?? [new Error('no reply'), null];
      if (error) throw error;
      // An empty (or absent) stream: everything written to it from now on is new.
      const end = (entries as [string, string[]][])[0]?.[0] ?? '0-0';
      if (held.lastId === null || before(end, held.lastId)) held.lastId = end;
      held.recheck = false;
      if (this.held.get(id) === held) for (const resolve of held.waiters.splice(0)) resolve();
    });
  }

  /**
   * One `XREAD BLOCK` over the held streams, each after its last id; its entries handed over in order. Resolves with
   * how many there were.
   */
  private async read(): Promise<number> {
    const ids = [...this.held.keys()];
    if (ids.some((id) => this.held.get(id)!.lastId === null || this.held.get(id)!.recheck)) return 0; // ends first
    const keys = ids.map(streamKeyOf);
    const after = ids.map((id) => this.held.get(id)!.lastId!);
    this.generation++;
    this.reading = true;
    let reply: [string, [string, string[]][]][] | null;
    try {
      reply = (await this.reader.xread('COUNT', READ_COUNT, 'BLOCK', READ_BLOCK_MS, 'STREAMS', ...keys, ...after)) as
        [string, [string, string[]][]][] | null;
    } finally {
      this.reading = false;
    }
    let read = 0;
    for (const [key, entries] of reply ?? []) {
      const id = key.slice(streamKeyOf('').length);
      const held = this.held.get(id);
      if (!held) continue; // released meanwhile
      read += entries.length;
      for (const [entryId, fields] of entries) {
        held.lastId = entryId;
        try {
          this.handlers.notice(noticeOf(id, fields));
        } catch (error) {
          log().warn({ component: 'live-feed', err: describeError(error) }, 'notice handler failed');
        }
      }
    }
    return read;
  }
}
