import 'server-only';
import { and, eq, inArray, lte, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests } from '../../db/schema';
import { TRANSITIONS, isLive, isOpen, type RequestEvent, type RequestState } from '../../../lib/request-machine';

// The request machine applied (lib/request-machine.ts; docs/rules.md "States"; docs/decisions/
// 0007-request-machine-one-table-conditional-updates.md): every status write of `location_requests` is one conditional
// UPDATE here, and the clock's events (an unanswered link past its expiry, a share past its window) are settled when a
// request is read.

/** Columns an event may set beside the status (the sharing window, the first share, the withdrawal time, …). */
export type RequestColumns = Partial<
  Pick<
    typeof locationRequests.$inferInsert,
    | 'sharingUntil'
    | 'firstSharedAt'
    | 'locationDeniedAt'
    | 'withdrawnAt'
    | 'ownerSeenAt'
    | 'liveSignal'
    | 'moreTimeAsk'
    | 'precision'
  >
>;

/**
 * Applies `event` to request `id` as one conditional UPDATE (lib/request-machine.ts `TRANSITIONS`): the row moves only
 * when its status, read by PostgreSQL at the moment of the write, is one the event may be taken in, and `also` (an
 * extra condition, e.g. "the window has ended") holds. Two racing events therefore never both apply to the same
 * state: the second sees the first's result and is refused or applies after it. `set` adds columns to the same
 * write. Returns the new state, or null when nothing moved (wrong state, condition false, unknown id).
 */
export async function applyEvent(
  db: Db | Tx,
  id: string,
  event: RequestEvent,
  set: RequestColumns = {},
  also?: SQL,
): Promise<RequestState | null> {
  const [row] = await db
    .update(locationRequests)
    .set({ status: TRANSITIONS[event].to, ...set })
    .where(and(eq(locationRequests.id, id), inArray(locationRequests.status, [...TRANSITIONS[event].from]), also))
    .returning({ status: locationRequests.status });
  return row?.status ?? null;
}

/**
 * The consent SMS of request `requestId` was accepted by the SMS provider: `queued -> sms_sent` (`sms_accepted`), in
 * the transaction in which the outbox records the message as sent. The job worker hands it to messaging's
 * `deliverOutboxMessage` (server/jobs/outbox-workers.ts): messaging does not import locate, which imports messaging
 * (docs/decisions/0020-domain-folders.md).
 */
export async function consentSmsSent(tx: Tx, requestId: string): Promise<void> {
  await applyEvent(tx, requestId, 'sms_accepted');
}

/**
 * Applies `event` to every request matching `where` that is in a state the event may be taken in (one conditional
 * UPDATE, as `applyEvent`), e.g. the upkeep job expiring every unanswered link at once. Returns the ids moved.
 */
export async function applyEventWhere(
  db: Db | Tx,
  event: RequestEvent,
  where: SQL | undefined,
  set: RequestColumns = {},
): Promise<string[]> {
  const rows = await db
    .update(locationRequests)
    .set({ status: TRANSITIONS[event].to, ...set })
    .where(and(inArray(locationRequests.status, [...TRANSITIONS[event].from]), where))
    .returning({ id: locationRequests.id });
  return rows.map((r) => r.id);
}

/**
 * The condition "the consent link's time ran out" at `now` (the app's clock, so time-travel tests move it), for
 * `link_expired`.
 */
export const linkTimeUp = (now: Date): SQL => lte(locationRequests.expiresAt, now);

/** The condition "the sharing window the owner chose has ended" at `now`, for `window_ended`. */
export const windowOver = (now: Date): SQL => lte(locationRequests.sharingUntil, now);

/**
 * Brings request `id` up to the clock `now` (with `known`, the row as the caller just read it, nothing is written or
 * read when nothing is due by it): an unanswered link past its expiry becomes `expired`, a share past its window
 * becomes `stopped` (`window_ended`). Conditional writes, safe to run from any number of readers at once and inside
 * or outside a transaction. Returns the request's state after it, or null for an unknown id.
 */
export async function settleByClock(
  db: Db | Tx,
  id: string,
  now = new Date(),
  known?: { status: RequestState; expiresAt: Date; sharingUntil: Date | null },
): Promise<RequestState | null> {
  // A row just read that nothing is due on needs no write: the common case of a position or a view costs no query.
  if (known && !dueByClock(known, now)) return known.status;
  const moved =
    (await applyEvent(db, id, 'link_expired', {}, linkTimeUp(now))) ??
    (await applyEvent(db, id, 'window_ended', {}, windowOver(now)));
  if (moved) return moved;
  const [row] = await db
    .select({ status: locationRequests.status })
    .from(locationRequests)
    .where(eq(locationRequests.id, id));
  return row?.status ?? null;
}

/** Whether a request in `row`'s state is due to move by the clock at `now`: an open link past its expiry, a share past its window. */
function dueByClock(row: { status: RequestState; expiresAt: Date; sharingUntil: Date | null }, now: Date): boolean {
  if (isOpen(row.status)) return row.expiresAt.getTime() <= now.getTime();
  if (isLive(row.status)) return row.sharingUntil !== null && row.sharingUntil.getTime() <= now.getTime();
  return false;
}
