import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { describeError } from '../observability/describe-error';
import { log } from '../observability/log';
import { LIVE_CHANNEL } from './live-hub';

/**
 * How long the broker gathers new positions before it announces them in one notification (ms). PostgreSQL commits
 * notifying transactions one at a time under one database-wide lock (PostgreSQL docs, "NOTIFY"; bench/notify-report.md):
 * one notice per process every BATCH_MS at most, whatever the fix rate, instead of one per fix.
 */
export const BATCH_MS = 20;

/** A notice that could not be sent is tried again after this long (ms), with what came meanwhile. */
const RETRY_MS = 1_000;

/** At most this many `[request, position]` pairs in one notice (about 55 bytes each; NOTIFY's payload is < 8,000 B). */
const PAIRS_PER_NOTICE = 120;

/**
 * A batch as announced on LIVE_CHANNEL, ids only: `p`, `[request id, newest position id]` pairs of new positions; `s`,
 * requests whose owner's page was heard from (`owner_seen_at` written: a heartbeat).
 */
export type PositionsNotice = { k: 'b'; p: [string, number][]; s?: string[] };

/**
 * The live broker's PostgreSQL engine (docs/decisions/0019-live-broker.md): tells every app process's hub
 * (services/live-hub.ts) that requests have new positions or a heartbeat, after their transactions committed, batched
 * and ids only. A stream that hears of a request's new positions reads them from the table after its last event id
 * (services/live-streams.ts), as a reconnect with `Last-Event-ID` does, so a notice lost (a crash between commit and
 * announcement, a listener reconnecting) is made good by the next one, and none is ever needed to carry a position.
 */
class PostgresBroker {
  private pending = new Map<string, number>();
  private seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /** Request `requestId` has a new position `positionId`, committed: announce it with the next batch. */
  announce(requestId: string, positionId: number): void {
    this.pending.set(requestId, Math.max(positionId, this.pending.get(requestId) ?? 0));
    this.timer ??= setTimeout(() => void this.flush(), BATCH_MS);
  }

  /** Request `requestId`'s owner's page was heard from (`owner_seen_at` committed): announce it with the next batch. */
  heartbeat(requestId: string): void {
    this.seen.add(requestId);
    this.timer ??= setTimeout(() => void this.flush(), BATCH_MS);
  }

  /**
   * Sends what was gathered, one notification per PAIRS_PER_NOTICE requests; never throws: a failure is logged and
   * what was gathered is tried again after RETRY_MS. Called at shutdown too, so nothing gathered is left behind.
   */
  async flush(): Promise<void> {
    this.timer = null;
    const pairs = [...this.pending.entries()];
    const seen = [...this.seen];
    this.pending.clear();
    this.seen.clear();
    if (pairs.length === 0 && seen.length === 0) return;
    try {
      const db = await getDb();
      // Request ids count as pairs for the payload's size (each about as long).
      for (let i = 0; i < Math.max(pairs.length, seen.length); i += PAIRS_PER_NOTICE) {
        const notice: PositionsNotice = {
          k: 'b',
          p: pairs.slice(i, i + PAIRS_PER_NOTICE),
          s: seen.slice(i, i + PAIRS_PER_NOTICE),
        };
        await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(notice)})`);
      }
    } catch (error) {
      // Kept for the next try (a notice names a request's newest id; a later one covers an earlier one).
      for (const [r, id] of pairs) this.pending.set(r, Math.max(id, this.pending.get(r) ?? 0));
      for (const r of seen) this.seen.add(r);
      this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
      log().warn({ component: 'live-broker', err: describeError(error) }, 'live notice not sent; tried again in 1 s');
    }
  }
}

const KEY = Symbol.for('app.liveBroker');

/** This process's broker (one per process, shared by every module instance). */
export function liveBroker(): PostgresBroker {
  const g = globalThis as unknown as Record<symbol, PostgresBroker | undefined>;
  return (g[KEY] ??= new PostgresBroker());
}
