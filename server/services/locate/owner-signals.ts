import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locationRequests, positions } from '../../db/schema';
import { liveBroker } from './live-broker';
import { LIVE_STATES, isLive, type RequestState } from '../../../lib/request-machine';
import { byConsentCode, type AnswerResult, type Fix } from './consent';
import { fixAt } from '../../../lib/geo';
import { viewersOf } from './watchers';
import {
  LIMITS,
  RateLimitedError,
  consume,
  consumeOneSql,
  limitReachedSql,
  retryAfterOf,
  retryAfterSeconds,
} from '../rate-limit';
import { applyEvent, settleByClock, type RequestColumns } from './request-transitions';
import { buyerHasAccessSql } from './buyer-access';
import { sha256 } from '../tokens';
import type { PresenceAnswer } from '../../../lib/contracts/consent';
import type { MoreTimeAsk } from '../../../lib/contracts/locations';

// What the owner's page sends, by consent code, while a share runs: the browser's fixes and what the page says of
// itself (visible, hidden, permission lost), for the buyer's live map (docs/rules.md#the-product;
// services/locate/consent.ts holds the owner's decisions).

/**
 * Stores a browser GPS position `fix` for the request of consent code `code`, sent from client IP `ip`, in one
 * statement (a fix arrives every few seconds from every owner who shares, so its cost bounds how many shares a process
 * serves: bench/live-report.md).
 *
 * The statement, in order:
 * - refuses an IP that has used up its guesses of consent codes (`consentMissPerIp`, as the other consent routes do
 *   before any lookup: server/api/consent-guard.ts), without reading the request;
 * - spends one point of the request's limit (positionsPerRequest, counted by the code's hash) when the code exists;
 * - stores the position (for an approximate share, its area cell: lib/geo.ts `fixAt`) only if the limit
 * holds, the request is live (`sharing` or `paused`) and inside its window,
 *   and its buyer has access (`buyerHasAccessSql`). The request row is locked `FOR NO KEY UPDATE` until the statement
 *   commits: a concurrent Stop (which locks it `FOR UPDATE`) waits for a position already being written and every
 *   later one sees `stopped`, and two fixes of one request take their turns (a weaker `FOR SHARE` let two of them
 *   each wait for the other's lock to write the heartbeat: a deadlock);
 * - counts a stored fix of a `sharing` request as the owner's heartbeat (`ownerSeenAt`, written at most every
 *   HEARTBEAT_WRITE_MS: the buyer's "offline" needs a minute of silence). It does not resume a paused share: a fix
 *   sent just before the page was hidden may arrive after the page said so; only the page's own `visible` resumes.
 * A stored position and a heartbeat written reach the buyer's open map through the live broker after the statement
 * commits, batched with others (services/locate/live-broker.ts).
 *
 * Returns `{ status: 'sharing' }` with the share's end, whether the requester asks for more time, whether a map is
 * open and a waiting "Refresh now" (services/locate/watchers.ts `viewersOf`) when stored; otherwise `not_found`
 * (unknown code: the caller counts the guess), `not_sharing` (the request is not live, or its window ended: the clock's
 * transition is then applied, request-transitions.ts `settleByClock`), `withdrawn` (the buyer has no access any more).
 * Throws RateLimitedError when the IP is out of guesses (nothing read or written), or when the request is live but out
 * of points (no position stored; the point is spent, as rate-limiter-flexible's `consume` spends it).
 */
export async function savePosition(db: Db, code: string, fix: Fix, ip: string | null): Promise<AnswerResult> {
  const hash = sha256(code);
  // The application's clock, as everywhere a request's window and a limit's window are judged.
  const now = new Date();
  const nowMs = now.getTime();
  const access = buyerHasAccessSql(sql`request.user_id`, now);
  const heartbeatDue = new Date(nowMs - HEARTBEAT_WRITE_MS);
  // An approximate share stores the fix's area cell, whatever the page sent (lib/geo.ts `fixAt`).
  const area = fixAt(fix, 'approximate');
  const { rows } = await db.execute<SavedRow>(sql`
    with guard as (
      select ${limitReachedSql('consentMissPerIp', ip ?? 'unknown', nowMs)} as guessed_out
    ), request as (
      select id, status, user_id, expires_at, sharing_until, more_time_ask, precision, watched_until, fix_wanted_at
      from ${locationRequests}
      where ${locationRequests.consentCodeHash} = ${hash} and not (select guessed_out from guard)
      for no key update
    ), counted as (
      ${consumeOneSql('positionsPerRequest', hash, nowMs, sql`request`)}
    ), accepted as (
      select id, precision from request
      where (select points from counted) <= ${LIMITS.positionsPerRequest.points}
        and status in (${LIVE_STATES_SQL}) and sharing_until > ${now} and ${access}
    ), stored as (
      insert into ${positions} (request_id, source, precision, latitude, longitude, accuracy_m)
      select id, 'gps', precision,
        case when precision = 'approximate' then ${area.latitude}::float8 else ${fix.latitude}::float8 end,
        case when precision = 'approximate' then ${area.longitude}::float8 else ${fix.longitude}::float8 end,
        case when precision = 'approximate' then ${area.accuracy}::float8 else ${fix.accuracy}::float8 end
      from accepted
      returning id
    ), seen as (
      update ${locationRequests} set owner_seen_at = ${now} from accepted
      where ${locationRequests.id} = accepted.id and ${locationRequests.status} = 'sharing'
        and (${locationRequests.ownerSeenAt} is null or ${locationRequests.ownerSeenAt} <= ${heartbeatDue})
      returning 1
    )
    select guard.guessed_out, request.id, request.status, request.expires_at, request.sharing_until,
      request.more_time_ask, request.watched_until, request.fix_wanted_at,
      (select points from counted) as points, (select expire from counted) as expire,
      exists (select 1 from stored) as stored, (select id from stored) as position_id,
      exists (select 1 from seen) as heartbeat, ${access} as access
    from guard left join request on true`);
  const [row] = rows;
  if (row.guessed_out) {
    throw new RateLimitedError(await retryAfterOf('consentMissPerIp', ip ?? 'unknown'));
  }
  if (row.id === null) return { error: 'not_found' };
  if (row.stored) {
    // Committed (the statement ran on its own): the broker tells the buyers' open maps, batched.
    liveBroker().announce(row.id, Number(row.position_id));
    if (row.heartbeat) liveBroker().heartbeat(row.id);
    // The owner's page learns of a moved end and of the requester's ask for more time with each fix.
    return {
      status: 'sharing',
      sharingUntil: new Date(row.sharing_until!).toISOString(),
      moreTimeAsked: row.more_time_ask === 'asked',
      ...viewersOf({ watchedUntil: dateOf(row.watched_until), fixWantedAt: dateOf(row.fix_wanted_at) }, now),
    };
  }
  // Not stored: why, in the order the owner's page needs to know it (a share that ended, before a limit).
  const status = await settleByClock(db, row.id, now, {
    status: row.status!,
    expiresAt: new Date(row.expires_at!),
    sharingUntil: row.sharing_until === null ? null : new Date(row.sharing_until),
  });
  if (!status || !isLive(status)) return { error: 'not_sharing' };
  if (!row.access) return { error: 'withdrawn' };
  if (Number(row.points) > LIMITS.positionsPerRequest.points) {
    throw new RateLimitedError(retryAfterSeconds(Number(row.expire), nowMs));
  }
  return { error: 'not_sharing' };
}

/** A time as the driver gives it (a Date, or a string from a raw statement), or null. */
const dateOf = (t: Date | string | null): Date | null => (t === null ? null : new Date(t));

/** LIVE_STATES as an SQL list, for `savePosition`'s statement. */
const LIVE_STATES_SQL = sql.join(
  LIVE_STATES.map((state) => sql`${state}`),
  sql`, `,
);

/**
 * The row `savePosition`'s statement answers: whether the IP had used up its guesses, the request as it read it (all
 * null for an unknown code), the request's points after this fix, whether the fix was stored, the buyer's access.
 */
type SavedRow = {
  guessed_out: boolean;
  id: string | null;
  status: RequestState | null;
  expires_at: Date | string | null;
  sharing_until: Date | string | null;
  more_time_ask: MoreTimeAsk | null;
  watched_until: Date | string | null;
  fix_wanted_at: Date | string | null;
  points: number | string | null;
  expire: number | string | null;
  stored: boolean;
  position_id: number | string | null;
  heartbeat: boolean;
  access: boolean | null;
};

/** A fix refreshes `ownerSeenAt` when it is at least this old (ms); the heartbeat itself always does. */
const HEARTBEAT_WRITE_MS = 5_000;

/** What the owner's page says of itself while sharing (lib/live-state.ts). */
export const PRESENCE_SIGNALS = ['visible', 'hidden', 'permission_lost'] as const;
export type Presence = (typeof PRESENCE_SIGNALS)[number];

/**
 * The owner's page is open and visible: a paused share resumes (`page_visible`), and `ownerSeenAt` is now. A column
 * write on a live request only (the request's state is changed by the machine's conditional UPDATE alone).
 */
async function heartbeat(db: Db, id: string): Promise<void> {
  const seen = { ownerSeenAt: new Date(), liveSignal: null };
  if (await applyEvent(db, id, 'page_visible', seen)) return; // a change of state: the table's trigger announces it
  await markSeen(db, id, 'sharing', seen);
  // Only the time changed: the live broker tells the buyers' open maps (services/locate/live-broker.ts).
  liveBroker().heartbeat(id);
}

/**
 * What the owner's page said (`ownerSeenAt`, `liveSignal`), written on request `id` only while it is in `state`: a
 * column write that never changes the state (the machine's conditional UPDATE alone does that).
 */
async function markSeen(
  db: Db,
  id: string,
  state: 'sharing' | 'paused',
  set: Pick<RequestColumns, 'ownerSeenAt' | 'liveSignal'>,
): Promise<void> {
  await db
    .update(locationRequests)
    .set(set)
    .where(and(eq(locationRequests.id, id), eq(locationRequests.status, state)));
}

/**
 * Records what the owner's page says during a share, for the buyer's map (lib/live-state.ts): `visible` is the
 * heartbeat (every LIVE_HEARTBEAT_MS while the page is visible, and on becoming visible again), `hidden` is sent by
 * `navigator.sendBeacon` on `visibilitychange` to hidden and on `pagehide`, `permission_lost` when the Permissions
 * API reports the location permission revoked. `hidden` and `permission_lost` pause the share (`page_hidden`); a
 * paused share that is hidden and then loses the permission keeps the latest reason. Limited per request like
 * positions (positionsPerRequest). Returns the new state with the share's end and whether the requester asks for
 * more time (the visible page shows the ask from its heartbeat), `not_found` for an unknown code, `not_sharing` when
 * no share runs (the page then reloads its view).
 */
export async function recordPresence(
  db: Db,
  code: string,
  presence: Presence,
): Promise<PresenceAnswer | { error: 'not_found' | 'not_sharing' }> {
  const row = await byConsentCode(db, code);
  if (!row) return { error: 'not_found' };
  const status = await settleByClock(db, row.request.id, new Date(), row.request);
  if (!status || !isLive(status)) return { error: 'not_sharing' };
  await consume('positionsPerRequest', sha256(code));
  const id = row.request.id;
  // What the page learns with the answer: the share's end and the requester's ask for more time (as read above).
  const news = {
    sharingUntil: row.request.sharingUntil?.toISOString() ?? null,
    moreTimeAsked: row.request.moreTimeAsk === 'asked',
    ...viewersOf(row.request),
  };
  if (presence === 'visible') {
    await heartbeat(db, id);
    return { status: 'sharing', ...news };
  }
  // Already paused: the latest reason is kept.
  if (!(await applyEvent(db, id, 'page_hidden', { liveSignal: presence })))
    await markSeen(db, id, 'paused', { liveSignal: presence });
  return { status: 'paused', ...news };
}
