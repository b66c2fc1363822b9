import 'server-only';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, type LocationRequest } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import { LIVE_STATES, isLive } from '../../../lib/request-machine';
import { minutesAddable, type PresenceAnswer } from '../../../lib/contracts/consent';
import type { MoreTimeAskAnswer } from '../../../lib/contracts/locations';

// More time during a share, the owner's decision alone (docs/decisions/0021-more-time-is-the-owners-decision.md): the
// owner adds "+15 min" or "+1 h" from their page, never beyond MAX_SHARE_MINUTES from the tap; the requester may ask
// once per share from the map, and nothing changes until the owner taps. No SMS is sent for an ask. A moved end and
// the ask reach the buyer's open map through the request's live trigger (drizzle/0033_more_time.sql).

/** What the owner's page learns after an extension or a refusal: the state, the share's end, a pending ask. */
export type ShareNews = { status: LocationRequest['status'] } & Pick<PresenceAnswer, 'sharingUntil' | 'moreTimeAsked'>;

/** The owner's answer on more time, taken by `answerConsent` (services/locate/consent.ts) with the request row locked.
 * */
export type MoreTimeAction = { action: 'extend'; minutes: number } | { action: 'keep_end' };

/** Writes the owner's consent record `extended` with the minutes added (services/locate/consent.ts builds it). */
type RecordExtension = (decision: 'extended', extra: { durationMinutes: number }) => Promise<unknown>;

/**
 * The owner's answer on more time for `request` (read under `FOR UPDATE` in `tx`, already brought up to the clock):
 * - `extend`: moves the share's end by `minutes`, cut at MAX_SHARE_MINUTES from now and to whole minutes (`minutesAddable`), records the
 *   minutes added as the consent record `extended` (docs/rules.md#data: every decision of the owner is its own
 *   append-only record) and answers a pending ask as `granted`. Nothing changes when the end is already at the cap.
 * - `keep_end`: answers a pending ask as `refused`; nothing else changes.
 * Returns the share's news, or `not_sharing` when no share runs (stopped, ended, never started).
 */
export async function answerMoreTime(
  tx: Tx,
  request: LocationRequest,
  action: MoreTimeAction,
  record: RecordExtension,
): Promise<ShareNews | { error: 'not_sharing' }> {
  if (!isLive(request.status) || !request.sharingUntil) return { error: 'not_sharing' };
  let until = request.sharingUntil;
  let ask = request.moreTimeAsk;
  if (action.action === 'keep_end') {
    if (ask === 'asked') ask = 'refused';
  } else {
    const added = minutesAddable(until.getTime(), action.minutes, Date.now());
    if (added > 0) {
      until = new Date(until.getTime() + added * 60_000);
      if (ask === 'asked') ask = 'granted';
      await record('extended', { durationMinutes: added });
    }
  }
  if (until !== request.sharingUntil || ask !== request.moreTimeAsk) {
    await tx
      .update(locationRequests)
      .set({ sharingUntil: until, moreTimeAsk: ask })
      .where(and(eq(locationRequests.id, request.id), inArray(locationRequests.status, LIVE_STATES)));
  }
  return { status: request.status, sharingUntil: until.toISOString(), moreTimeAsked: ask === 'asked' };
}

/**
 * The requester asks the owner of their request `requestId` for more time (`POST /gpsTrace/phoneLocation/{id}/more-time`):
 * one conditional UPDATE, so that of many asks sent at once exactly one is taken. Taken only while the request's share
 * runs (`sharing` or `paused`, its end in the future) and nothing was asked in this share (a new share clears it).
 * The owner's open page shows the ask with its next heartbeat or fix. Returns the ask as it stands (`asked`). Raises
 * DomainError `notFound` (no such request of `userId`), `conflict` `Api.notSharing` (no share runs) or `conflict`
 * `Api.moreTimeAsked` (already asked in this share).
 */
export async function askMoreTime(
  db: Db,
  userId: string,
  requestId: string,
  now = new Date(),
): Promise<MoreTimeAskAnswer> {
  const mine = and(eq(locationRequests.id, requestId), eq(locationRequests.userId, userId));
  const [taken] = await db
    .update(locationRequests)
    .set({ moreTimeAsk: 'asked' })
    .where(
      and(
        mine,
        inArray(locationRequests.status, LIVE_STATES),
        gt(locationRequests.sharingUntil, now),
        isNull(locationRequests.moreTimeAsk),
      ),
    )
    .returning({ id: locationRequests.id });
  if (taken) return { moreTime: 'asked' };
  const [row] = await db
    .select({
      status: locationRequests.status,
      sharingUntil: locationRequests.sharingUntil,
      ask: locationRequests.moreTimeAsk,
    })
    .from(locationRequests)
    .where(mine);
  if (!row) throw notFound();
  if (!isLive(row.status) || !row.sharingUntil || row.sharingUntil <= now)
    throw new DomainError('conflict', 'Api.notSharing');
  throw new DomainError('conflict', 'Api.moreTimeAsked');
}
