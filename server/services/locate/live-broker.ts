import 'server-only';
import { sql } from 'drizzle-orm';
import { getDbState } from '../../db/client';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';
import type { Redis } from 'ioredis';
import { env } from '../../env';
import { LIVE_CHANNEL } from './live-hub';
import type { PositionsNotice } from './live-notices';
import { entryFields, redisConnection, STREAM_MAXLEN, STREAM_TTL_MS, streamKeyOf } from './live-redis-wire';

// The live broker (docs/decisions/0019-live-broker.md): the app process that committed a position or a heartbeat
// announces it, batched every BATCH_MS and ids only, to the hubs of every process, through PostgreSQL NOTIFY by default
// or one Redis Stream per request when REDIS_URL is set (./live-redis.ts). One broker per process (`liveBroker`).

/**
 * How long the broker gathers new positions before it announces them in one notification (ms). PostgreSQL commits
 * notifying transactions one at a time under one database-wide lock (PostgreSQL docs, "NOTIFY"; bench/notify-report.md):
 * one notice per process every BATCH_MS at most, whatever the fix rate, instead of one per fix.
 */
export const BATCH_MS = 20;

/** A batch that could not be sent is tried again after this long (ms), with what came meanwhile (either engine). */
const RETRY_MS = 1_000;

/** At most this many `[request, position]` pairs in one notice (about 55 bytes each; NOTIFY's payload is < 8,000 B). */
const PAIRS_PER_NOTICE = 120;

/**
 * What every engine of the live broker does (docs/decisions/0019-live-broker.md): tells the hubs of every app process
 * (services/locate/live-hub.ts) that requests have new positions or a heartbeat, after their transactions committed,
 * ids only. A stream that hears of a request's new positions reads them from the table after its last event id
 * (services/locate/live-streams.ts), as a reconnect with `Last-Event-ID` does, so a notice lost (a crash between commit
 * and announcement, a listener reconnecting, a broker restarting) is made good by the next one or by the hub's reading
 * on a timer, and none is ever needed to carry a position.
 */
export interface LiveBroker {
  /** `postgres` (NOTIFY) or `redis` (one Redis Stream per request), as REDIS_URL chose. */
  readonly engine: 'postgres' | 'redis';
  /** Request `requestId` has a new position `positionId`, committed: announce it with the next batch. */
  announce(requestId: string, positionId: number): void;
  /** Request `requestId`'s owner's page was heard from (`owner_seen_at` committed): announce it with the next batch. */
  heartbeat(requestId: string): void;
  /**
   * Sends what was gathered; never rejects: a failure is logged and what was gathered is tried again after RETRY_MS
   * (1 s). Called at shutdown too, so nothing gathered is left behind.
   */
  flush(): Promise<void>;
  /** Sends what was gathered, then lets go of the engine's connection (tests, shutdown). */
  close(): Promise<void>;
}

/**
 * The gathering both engines share: announcements of one request merge (its newest position id, a heartbeat) for
 * `gatherMs`, then go out in one `send`; a failed `send` keeps them, merged with what came meanwhile, for RETRY_MS.
 */
abstract class GatheringBroker implements LiveBroker {
  abstract readonly engine: 'postgres' | 'redis';
  private pending = new Map<string, number>();
  private seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /** `gatherMs`: how long announcements are gathered before they are sent (ms). */
  constructor(private readonly gatherMs: number) {}

  /** Sends one batch: `pairs`, `[request id, newest position id]`; `seen`, requests with a heartbeat. May reject. */
  protected abstract send(pairs: [string, number][], seen: string[]): Promise<void>;

  announce(requestId: string, positionId: number): void {
    this.pending.set(requestId, Math.max(positionId, this.pending.get(requestId) ?? 0));
    this.timer ??= setTimeout(() => void this.flush(), this.gatherMs);
  }

  heartbeat(requestId: string): void {
    this.seen.add(requestId);
    this.timer ??= setTimeout(() => void this.flush(), this.gatherMs);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pairs = [...this.pending.entries()];
    const seen = [...this.seen];
    this.pending.clear();
    this.seen.clear();
    if (pairs.length === 0 && seen.length === 0) return;
    try {
      await this.send(pairs, seen);
    } catch (error) {
      // Kept for the next try (a notice names a request's newest id; a later one covers an earlier one).
      for (const [r, id] of pairs) this.pending.set(r, Math.max(id, this.pending.get(r) ?? 0));
      for (const r of seen) this.seen.add(r);
      this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
      log().warn(
        { component: 'live-broker', engine: this.engine, err: describeError(error) },
        'live notice not sent; tried again in 1 s',
      );
    }
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * The live broker's PostgreSQL engine, the default (one machine, nothing to install): one `pg_notify` on LIVE_CHANNEL
 * per BATCH_MS at most (`PositionsNotice`, PAIRS_PER_NOTICE requests each), because PostgreSQL commits notifying
 * transactions one at a time under one database-wide lock (bench/notify-report.md). Sent on the live path's own pool,
 * so that a busy process's queue of statements does not hold its notices back.
 */
class PostgresBroker extends GatheringBroker {
  readonly engine = 'postgres' as const;

  constructor() {
    super(BATCH_MS);
  }

  protected async send(pairs: [string, number][], seen: string[]): Promise<void> {
    // The live path's own pool (server/db/client.ts `DbState.live`): a notice does not queue behind requests.
    const { live: db } = await getDbState();
    // Request ids count as pairs for the payload's size (each about as long).
    for (let i = 0; i < Math.max(pairs.length, seen.length); i += PAIRS_PER_NOTICE) {
      const notice: PositionsNotice = {
        k: 'b',
        p: pairs.slice(i, i + PAIRS_PER_NOTICE),
        s: seen.slice(i, i + PAIRS_PER_NOTICE),
      };
      await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(notice)})`);
    }
  }
}

/**
 * The live broker's Redis (or Valkey) engine, chosen by REDIS_URL: what was announced in one turn of the event loop
 * goes out in one pipeline, one `XADD live:<request> MAXLEN ~ STREAM_MAXLEN * [p <newest position id>] [s 1]` per
 * request and a `PEXPIRE` of STREAM_TTL_MS (Redis docs, "XADD", "Pipelining"), read by the hubs that hold that
 * request's maps (services/locate/live-redis.ts `RedisFeed`). Redis takes no database-wide lock, so nothing is gained
 * by waiting longer. While Redis does not answer, what was announced is kept and tried again every RETRY_MS; the hubs
 * read on a timer meanwhile, so no position is lost.
 */
class RedisBroker extends GatheringBroker {
  readonly engine = 'redis' as const;
  private readonly client: Redis;

  /** `url`: REDIS_URL. */
  constructor(url: string) {
    super(0);
    this.client = redisConnection(url, 'live-broker');
  }

  protected async send(pairs: [string, number][], seen: string[]): Promise<void> {
    const newest = new Map<string, number | null>(pairs);
    for (const r of seen) if (!newest.has(r)) newest.set(r, null);
    const heard = new Set(seen);
    const pipeline = this.client.pipeline();
    for (const [r, positionId] of newest) {
      const key = streamKeyOf(r);
      pipeline.xadd(key, 'MAXLEN', '~', STREAM_MAXLEN, '*', ...entryFields(positionId, heard.has(r)));
      pipeline.pexpire(key, STREAM_TTL_MS);
    }
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
  }

  override async close(): Promise<void> {
    await super.close();
    this.client.disconnect();
  }
}

/**
 * A new broker of the engine REDIS_URL chooses: Redis's with `redisUrl` (a `redis://` or `rediss://` URL), else
 * PostgreSQL's (docs/decisions/0019-live-broker.md). Tests make one of each; the app uses `liveBroker()`.
 */
export function createLiveBroker(redisUrl: string | null | undefined): LiveBroker {
  return redisUrl ? new RedisBroker(redisUrl) : new PostgresBroker();
}

const KEY = Symbol.for('app.liveBroker');

/** This process's broker (one per process, shared by every module instance), of the engine REDIS_URL chooses. */
export function liveBroker(): LiveBroker {
  const g = globalThis as unknown as Record<symbol, LiveBroker | undefined>;
  return (g[KEY] ??= createLiveBroker(env().REDIS_URL));
}
