import 'server-only';
import { and, eq, inArray, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboundMessages } from '../../db/schema';

// When an outbox message is tried (docs/decisions/0005-outbox-with-pg-boss.md, docs/rules.md#states): the retry
// schedule of a failed delivery and when a message may be given up, the lease a worker holds while it sends, and the
// rows the job worker and the minute sweep enqueue (due retries, first attempts, crashed deliveries).

/**
 * The retry schedule of a failed delivery: the wait (ms) after failed attempt n is entry n-1; past the table, its last
 * entry (an hour) repeats. 10 s, 30 s, 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, then hourly: a message that met a
 * blip (a server restart, a refused connection) goes out seconds later, and one that meets a long outage is tried
 * every hour until DELIVERY_HORIZON_MS. Each wait is spread by ±RETRY_JITTER so that the messages of one failed
 * burst do not all come back in the same second (equal jitter as in the AWS Architecture Blog's "Exponential Backoff
 * And Jitter"; bounded both ways, so the horizon below is exact). Waiting messages do not depend on the schedule to
 * leave once the provider is back: services/outbox-recovery.ts makes them due as soon as it answers again.
 */
export const RETRY_SCHEDULE_MS = [10, 30, 60, 120, 300, 900, 1_800, 3_600].map((seconds) => seconds * 1000);

/** The spread of each retry wait: a factor drawn uniformly in [1 - RETRY_JITTER, 1 + RETRY_JITTER]. */
export const RETRY_JITTER = 0.2;

/** How long a message keeps being retried before it may be marked `failed` (ms): an outage of a day loses nothing. */
export const DELIVERY_HORIZON_MS = 24 * 3_600_000;

/** The wait (ms, before jitter) after failed attempt `attempts` (1-based) of RETRY_SCHEDULE_MS. */
function retryWait(attempts: number): number {
  return RETRY_SCHEDULE_MS[Math.min(Math.max(attempts, 1), RETRY_SCHEDULE_MS.length) - 1];
}

/**
 * Attempts per message before it may be marked `failed`: the first plus as many retries as the schedule needs to span
 * DELIVERY_HORIZON_MS even when every wait is at its shortest (-RETRY_JITTER). With the table above: 38.
 */
export const MAX_DELIVERY_ATTEMPTS = (() => {
  let attempts = 1;
  for (let spanned = 0; spanned < DELIVERY_HORIZON_MS; attempts++) spanned += retryWait(attempts) * (1 - RETRY_JITTER);
  return attempts;
})();

/**
 * Whether a delivery that failed at `now`, as attempt `attempts` of a message created at `createdAt`, is the last
 * one: at least MAX_DELIVERY_ATTEMPTS attempts *and* DELIVERY_HORIZON_MS since the message was written. Both, so that
 * neither attempts spent early (a recovery that made the message due while the provider still refused it) nor an
 * operator's retry of an old message (which starts a new round of attempts) ends the message before a full round.
 */
export function isLastAttempt(attempts: number, createdAt: Date, now: Date): boolean {
  return attempts >= MAX_DELIVERY_ATTEMPTS && now.getTime() - createdAt.getTime() >= DELIVERY_HORIZON_MS;
}

/** How long a worker owns a message it is sending; a crashed delivery is tried again after it (ms). */
export const LEASE_MS = 2 * 60_000;

/** A `sending` row whose worker's lease ran out at `now` (the worker crashed): another may take it. */
export const leaseExpired = (now: Date) =>
  and(eq(outboundMessages.status, 'sending'), lt(outboundMessages.leaseUntil, now));

/**
 * When attempt `attempts` (1-based) failed at `now`, the next one may start at the returned time: now plus the
 * schedule's wait (RETRY_SCHEDULE_MS) times a factor in [1 - RETRY_JITTER, 1 + RETRY_JITTER] from `random` (0..1).
 */
export function nextAttemptAfter(attempts: number, now: Date, random = Math.random): Date {
  return new Date(now.getTime() + retryWait(attempts) * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}
/**
 * Outbox rows to (re)enqueue (the minute sweep): `queued` rows that are due (a retry whose time has come, or a first
 * attempt waiting over a minute, e.g. its enqueue was lost) and `sending` rows whose lease ran out (a crashed worker).
 */
export async function dueOutboxIds(db: Db, now = new Date(), limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: outboundMessages.id })
    .from(outboundMessages)
    .where(
      or(
        and(
          eq(outboundMessages.status, 'queued'),
          or(
            lte(outboundMessages.nextAttemptAt, now),
            and(
              isNull(outboundMessages.nextAttemptAt),
              lt(outboundMessages.createdAt, new Date(now.getTime() - 60_000)),
            ),
          ),
        ),
        leaseExpired(now),
      ),
    )
    // Oldest first, so a backlog is worked off in order and none waits behind newer rows for ever.
    .orderBy(outboundMessages.createdAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Ids and channels of up to `limit` rows waiting for their first attempt (`queued`, no retry time), oldest first: what was written
 * while no process heard the outbox's announcements (server/jobs/outbox-listener.ts reads them after reconnecting, and
 * every second while it cannot hear).
 */
export async function firstAttemptIds(db: Db, limit = 100): Promise<{ id: string; channel: string }[]> {
  return db
    .select({ id: outboundMessages.id, channel: outboundMessages.channel })
    .from(outboundMessages)
    .where(and(eq(outboundMessages.status, 'queued'), isNull(outboundMessages.nextAttemptAt)))
    .orderBy(outboundMessages.createdAt)
    .limit(limit);
}

/**
 * The next attempt times of the `queued` rows among `ids` that wait for a retry (`nextAttemptAt` set), for the job
 * worker to enqueue retries that come sooner than the minute sweep would notice them.
 */
export async function retryTimesOf(db: Db, ids: string[]): Promise<{ id: string; nextAttemptAt: Date }[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: outboundMessages.id, nextAttemptAt: outboundMessages.nextAttemptAt })
    .from(outboundMessages)
    .where(
      and(
        inArray(outboundMessages.id, ids),
        eq(outboundMessages.status, 'queued'),
        isNotNull(outboundMessages.nextAttemptAt),
      ),
    );
  return rows as { id: string; nextAttemptAt: Date }[];
}
