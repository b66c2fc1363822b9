import 'server-only';
import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locationRequests } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { RateLimitedError } from '../rate-limit';
import { LIVE_STATES, isLive } from '../../../lib/request-machine';

// Fixes driven by viewers, as Life360 asks for frequent fixes only while someone looks at the map: the app processes
// that hold a buyer's live stream say so in the request's row (`watched_until`), the owner's page learns it with the
// answers to its heartbeats and fixes, sends every fix while a map is open and rests otherwise (one fix every
// REST_FIX_MS, the heartbeat going on). "Refresh now" on the map asks the open owner page for one high-accuracy fix.
// Nothing more is stored about the buyer's viewing than those two times (the safety centre keeps its own view log).
// docs/decisions/0023-fixes-driven-by-viewers.md.

/** How long a map counts as open after a process last said it holds one (ms): two marks may be missed. */
export const WATCH_TTL_MS = 60_000;

/**
 * How often a process pushes `watched_until` forward for each stream it holds (ms): with the stream's keep-alive
 * (services/locate/open-streams.ts, a slice of the streams at a time).
 */
export const WATCH_MARK_MS = 15_000;

/** The fewest ms between two "Refresh now" of one request. */
export const REFRESH_EVERY_MS = 30_000;

/** How long a "Refresh now" waits for the owner's page (ms): an older one is not sent to the page any more. */
export const REFRESH_WAIT_MS = 60_000;

/**
 * Marks the requests `requestIds` as watched until `now` + WATCH_TTL_MS, whatever their state (a map opened before
 * the owner shares counts from the first fix): one UPDATE for all of them (the streams' upkeep calls it every
 * WATCH_MARK_MS for each stream this process holds, and once when a stream opens). A row that a fix holds locked at
 * that moment is skipped (`SKIP LOCKED`, PostgreSQL docs "The Locking Clause"), not waited for, and marked with the
 * next round, well within WATCH_TTL_MS; a fix that comes while a mark runs waits for that one short statement (a
 * slice of the process's streams).
 */
export async function markWatched(db: Db, requestIds: readonly string[], now = new Date()): Promise<void> {
  if (requestIds.length === 0) return;
  const free = db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(inArray(locationRequests.id, [...new Set(requestIds)]))
    .for('no key update', { skipLocked: true });
  await db
    .update(locationRequests)
    .set({ watchedUntil: new Date(now.getTime() + WATCH_TTL_MS) })
    .where(inArray(locationRequests.id, free));
}

/**
 * What the owner's page learns of its viewers from a request's row at `now`: whether a map is open (`watched`), and
 * the time of a "Refresh now" still waiting (`fixWantedAt`, ISO 8601 UTC; the page answers each once).
 */
export function viewersOf(
  row: { watchedUntil: Date | null; fixWantedAt: Date | null },
  now = new Date(),
): { watched: boolean; fixWantedAt: string | null } {
  const wanted = row.fixWantedAt && now.getTime() - row.fixWantedAt.getTime() < REFRESH_WAIT_MS;
  return {
    watched: row.watchedUntil !== null && row.watchedUntil > now,
    fixWantedAt: wanted ? row.fixWantedAt!.toISOString() : null,
  };
}

/**
 * "Refresh now" (`POST /gpsTrace/phoneLocation/{id}/refresh`): the buyer `userId` asks the owner's open page of their
 * request `requestId` for one high-accuracy fix. One conditional UPDATE: taken while the share runs and at most once
 * per REFRESH_EVERY_MS (of many at once, one is taken). Returns when it was asked (ISO 8601 UTC). Raises DomainError
 * `notFound` (not the caller's) or `conflict` `Api.notSharing` (no share runs); throws RateLimitedError
 * (`Api.refreshWait`, 429 with Retry-After in seconds) when asked less than REFRESH_EVERY_MS ago.
 */
export async function askFreshFix(db: Db, userId: string, requestId: string, now = new Date()): Promise<string> {
  const mine = and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId));
  const [taken] = await db
    .update(locationRequests)
    .set({ fixWantedAt: now })
    .where(
      and(
        mine,
        inArray(locationRequests.status, LIVE_STATES),
        gt(locationRequests.sharingUntil, now),
        or(
          isNull(locationRequests.fixWantedAt),
          lt(locationRequests.fixWantedAt, new Date(now.getTime() - REFRESH_EVERY_MS)),
        ),
      ),
    )
    .returning({ id: locationRequests.id });
  if (taken) return now.toISOString();
  const [row] = await db
    .select({
      status: locationRequests.status,
      sharingUntil: locationRequests.sharingUntil,
      fixWantedAt: locationRequests.fixWantedAt,
    })
    .from(locationRequests)
    .where(mine);
  if (!row) throw notFound();
  if (!isLive(row.status) || !row.sharingUntil || row.sharingUntil <= now)
    throw new DomainError('conflict', 'Api.notSharing');
  const wait = Math.max(1, Math.ceil((row.fixWantedAt!.getTime() + REFRESH_EVERY_MS - now.getTime()) / 1000));
  throw new RateLimitedError(wait, 'Api.refreshWait');
}
