import 'server-only';
import { and, count, countDistinct, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { FUNNEL } from '../../lib/tracking/funnel';
import { consents, locationRequests, optOuts, positions, users, type LocationRequest } from '../db/schema';
import { LIVE_STATES, isLive, next, refusal, type RequestState } from '../../lib/request-machine';
import { recordRequestEvent } from './events';
import { applyEvent, settleByClock, type RequestColumns } from './request-transitions';
import { lookupIp } from './geoip';
import { alertBuyer, alertFor } from './buyer-alerts';
import {
  LIMITS,
  RateLimitedError,
  consume,
  consumeOneSql,
  limitReachedSql,
  retryAfterOf,
  retryAfterSeconds,
} from './rate-limit';
import { buyerHasAccess, buyerHasAccessSql } from './requests';
import { optOut } from './sms-guards';
import { maskEmail, sha256 } from './tokens';
import { SHARE_PRESETS, type ConsentView, type RequesterFacts } from '../../lib/contracts/consent';

// The phone owner's side of a location request, reached with the consent code of the SMS link (docs/rules.md#the-product, #security).

/** Sharing durations the owner may choose (minutes); default 60 (the contract's, lib/contracts/consent.ts). */
export { SHARE_PRESETS };

/** A browser position: degrees (WGS 84) and the accuracy radius in metres (Geolocation API `coords`). */
export type Fix = { latitude: number; longitude: number; accuracy: number };

async function byConsentCode(db: Db, code: string) {
  const [row] = await db
    .select({ request: locationRequests, buyerEmail: users.email, buyerSince: users.createdAt })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(locationRequests.consentCodeHash, sha256(code)))
    .limit(1);
  return row ?? null;
}

/**
 * What we know of the account that asks, shown to the owner beside the requester's name (`RequesterFacts`): whether
 * the account `userId`, created at `createdAt`, is less than 24 hours old at `now` (the page says "created today"),
 * the month it was created (`YYYY-MM`, UTC), how many location requests it has made in all (the one shown included),
 * and how many of them their owners reported as abuse (each request counted once). Only these counts and the month:
 * no other data of the buyer reaches the owner.
 */
export async function requesterFacts(
  db: Db | Tx,
  userId: string,
  createdAt: Date,
  now = new Date(),
): Promise<RequesterFacts> {
  const [[made], [reports]] = await Promise.all([
    db.select({ n: count() }).from(locationRequests).where(eq(locationRequests.userId, userId)),
    db
      .select({ n: countDistinct(consents.requestId) })
      .from(consents)
      .innerJoin(locationRequests, eq(locationRequests.id, consents.requestId))
      .where(and(eq(locationRequests.userId, userId), eq(consents.decision, 'reported'))),
  ]);
  return {
    newAccount: now.getTime() - createdAt.getTime() < 24 * 3600_000,
    since: createdAt.toISOString().slice(0, 7),
    requests: made.n,
    reported: reports.n,
  };
}

/**
 * What the consent page shows for `code`: who asks (the requester name the buyer gave and their
 * masked e-mail), what we know of their account (`facts`, see `requesterFacts`), the status, the link's expiry and
 * the sharing window's end, whether the request was withdrawn (the buyer's subscription ended),
 * whether the browser refused the location last time, and how the last sharing ended (`ended`: `owner` when the
 * owner stopped or reported, `time` when the chosen duration ran out, null otherwise) with `reported` when the owner
 * reported the request. The first view moves the request to `opened`.
 * Null for an unknown code.
 */
export async function consentView(db: Db, code: string): Promise<Omit<ConsentView, 'product' | 'presets'> | null> {
  const row = await byConsentCode(db, code);
  if (!row) return null;
  let status = (await settleByClock(db, row.request.id, new Date(), row.request)) ?? row.request.status;
  if (next(status, 'link_opened')) {
    await db.transaction(async (tx) => {
      const moved = await applyEvent(tx, row.request.id, 'link_opened');
      if (moved) await recordRequestEvent(tx, FUNNEL.consentOpened, row.request.id);
    });
    status = 'opened';
  }
  const [last] = await db
    .select({ decision: consents.decision })
    .from(consents)
    .where(eq(consents.requestId, row.request.id))
    .orderBy(desc(consents.createdAt))
    .limit(1);
  const reported = last?.decision === 'reported';
  return {
    requester: maskEmail(row.buyerEmail),
    requesterName: row.request.requesterName,
    facts: await requesterFacts(db, row.request.userId, row.buyerSince),
    note: row.request.note,
    status,
    reported,
    ended: status === 'stopped' ? (last?.decision === 'stopped' ? 'owner' : 'time') : null,
    withdrawn: status === 'withdrawn',
    locationDenied: row.request.locationDeniedAt !== null,
    expiresAt: row.request.expiresAt.toISOString(),
    sharingUntil: row.request.sharingUntil?.toISOString() ?? null,
  };
}

/**
 * Who answered, and the text they were shown (built from the requester's name, masked e-mail and note, hashed into
 * the record).
 */
export type ConsentMeta = {
  ip: string | null;
  userAgent: string | null;
  shownText: (requester: { name: string | null; email: string; note: string | null }) => string;
};

export type AnswerResult =
  { status: LocationRequest['status'] } | { error: 'not_found' | 'expired' | 'withdrawn' | 'answered' | 'not_sharing' };

export type ConsentAction =
  | { action: 'share'; minutes: number; fix: Fix }
  | { action: 'denied' }
  | { action: 'decline' }
  | { action: 'stop' }
  | { action: 'report'; reason?: string | null };

/**
 * The owner's answer through the consent link (docs/rules.md#data, #security), in one transaction with the request row locked,
 * so the same answer sent many times at once is recorded once. Every decision is its own append-only consent record
 * (UTC time, IP, user agent, SHA-256 of the text shown):
 * - `share`: sent only after the browser gave its first fix, which it carries. Records the consent
 *   (`shared`, or `shared_again` after a stop) with the duration, opens the window of `minutes`, and stores that fix
 *   together with the IP-based area. Every share alerts the buyer (services/buyer-alerts.ts: a push, or by default an
 *   e-mail with a link to the map). Refused (`withdrawn`) when
 *   the buyer no longer has access;
 * - `denied`: the browser refused or could not give a position: nothing is stored, no consent is recorded, the
 *   request keeps its status and is marked so the buyer sees "location not allowed";
 * - `decline`: records the refusal and alerts the buyer; nothing about the phone's position is stored;
 * - `stop`: ends sharing (recorded) and alerts the buyer; the owner may share again;
 * - `report`: puts the number on the opt-out list (no more SMS to it) and ends the request (recorded, with the
 *   owner's optional `reason`, already checked and normalized by the route: plain text, at most 140 characters). Taken
 *   in every state, after a Decline or once the link expired too: an owner may report a request they already refused.
 * Returns the new status and outbox ids to enqueue, or the reason it was refused.
 */
export async function answerConsent(
  db: Db,
  code: string,
  action: ConsentAction,
  meta: ConsentMeta,
): Promise<AnswerResult & { outboxIds?: string[] }> {
  const found = await byConsentCode(db, code);
  if (!found) return { error: 'not_found' };
  await settleByClock(db, found.request.id);
  const ipLocation = action.action === 'share' && meta.ip ? await lookupIp(meta.ip) : null;
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(locationRequests)
      .where(eq(locationRequests.id, found.request.id))
      .for('update');
    const { id, status } = request;
    const textHash = sha256(
      meta.shownText({ name: request.requesterName, email: maskEmail(found.buyerEmail), note: request.note }),
    );
    const base = { requestId: id, targetE164: request.targetE164, ip: meta.ip, userAgent: meta.userAgent, textHash };
    const record = (
      decision: (typeof consents.$inferInsert)['decision'],
      extra: { durationMinutes?: number; reason?: string | null } = {},
    ) => tx.insert(consents).values({ ...base, decision, ...extra });

    if (action.action === 'report') {
      await optOut(tx, request.targetE164, 'report', id);
      await record('reported', { reason: action.reason ?? null });
      const reported = await applyEvent(tx, id, 'reported', { sharingUntil: null });
      // The buyer reads a report as a decline, or a stop when it ended a share (never as a report).
      const kind = reported ? alertFor(reported, isLive(status)) : null;
      return { status: reported ?? status, outboxIds: kind ? [await alertBuyer(tx, request, kind)] : [] };
    }
    const event = action.action === 'decline' ? 'declined' : action.action === 'stop' ? 'stopped_by_owner' : 'shared';
    const refused = refusal(status, event);
    if (refused) return { error: refused };
    if (action.action === 'denied') {
      if (isLive(status)) return { status };
      await tx.update(locationRequests).set({ locationDeniedAt: new Date() }).where(eq(locationRequests.id, id));
      return { status };
    }
    if (action.action === 'decline') {
      if (status === 'declined') return { status };
      await record('declined');
      return {
        status: (await applyEvent(tx, id, 'declined'))!,
        outboxIds: [await alertBuyer(tx, request, 'declined')],
      };
    }
    if (action.action === 'stop') {
      if (status === 'stopped') return { status };
      await record('stopped');
      return {
        status: (await applyEvent(tx, id, 'stopped_by_owner', { sharingUntil: new Date() }))!,
        outboxIds: [await alertBuyer(tx, request, 'stopped')],
      };
    }
    if (isLive(status)) return { status: (await applyEvent(tx, id, 'page_visible')) ?? status };
    const [optedOut] = await tx.select().from(optOuts).where(eq(optOuts.phoneE164, request.targetE164));
    if (optedOut) return { error: 'answered' };
    if (!(await buyerHasAccess(tx, request.userId))) return { error: 'withdrawn' };
    await record(status === 'stopped' ? 'shared_again' : 'shared', { durationMinutes: action.minutes });
    await applyEvent(tx, id, 'shared', {
      sharingUntil: new Date(Date.now() + action.minutes * 60_000),
      firstSharedAt: request.firstSharedAt ?? new Date(),
      locationDeniedAt: null,
      ownerSeenAt: new Date(),
      liveSignal: null,
    });
    if (ipLocation?.status === 'found' && ipLocation.latitude != null && ipLocation.longitude != null) {
      await tx.insert(positions).values({
        requestId: id,
        source: 'ip',
        latitude: ipLocation.latitude,
        longitude: ipLocation.longitude,
        accuracyM: ipLocation.accuracyRadiusKm != null ? ipLocation.accuracyRadiusKm * 1000 : null,
        label: [ipLocation.city, ipLocation.region, ipLocation.countryCode].filter(Boolean).join(', '),
      });
    }
    await tx.insert(positions).values({ requestId: id, source: 'gps', ...gpsColumns(action.fix) });
    if (!request.firstSharedAt) await recordRequestEvent(tx, FUNNEL.shared, id);
    return { status: 'sharing', outboxIds: [await alertBuyer(tx, request, 'shared')] };
  });
}

const gpsColumns = (fix: Fix) => ({ latitude: fix.latitude, longitude: fix.longitude, accuracyM: fix.accuracy });

/**
 * Stores a browser GPS position `fix` for the request of consent code `code`, sent from client IP `ip`, in one
 * statement (a fix arrives every few seconds from every owner who shares, so its cost bounds how many shares a process
 * serves: bench/live-report.md).
 *
 * The statement, in order:
 * - refuses an IP that has used up its guesses of consent codes (`consentMissPerIp`, as the other consent routes do
 *   before any lookup: server/api/consent-guard.ts), without reading the request;
 * - spends one point of the request's limit (positionsPerRequest, counted by the code's hash) when the code exists;
 * - stores the position only if the limit holds, the request is live (`sharing` or `paused`) and inside its window,
 *   and its buyer has access (`buyerHasAccessSql`). The request row is locked `FOR NO KEY UPDATE` until the statement
 *   commits: a concurrent Stop (which locks it `FOR UPDATE`) waits for a position already being written and every
 *   later one sees `stopped`, and two fixes of one request take their turns (a weaker `FOR SHARE` let two of them
 *   each wait for the other's lock to write the heartbeat: a deadlock);
 * - counts a stored fix of a `sharing` request as the owner's heartbeat (`ownerSeenAt`, written at most every
 *   HEARTBEAT_WRITE_MS: the buyer's "offline" needs a minute of silence). It does not resume a paused share: a fix
 *   sent just before the page was hidden may arrive after the page said so; only the page's own `visible` resumes.
 * The positions and the heartbeat reach the buyer's open map by the tables' NOTIFY triggers (services/live-hub.ts).
 *
 * Returns `{ status: 'sharing' }` when stored; otherwise `not_found` (unknown code: the caller counts the guess),
 * `not_sharing` (the request is not live, or its window ended: the clock's transition is then applied,
 * request-transitions.ts `settleByClock`), `withdrawn` (the buyer has no access any more). Throws RateLimitedError
 * when the IP is out of guesses (nothing read or written), or when the request is live but out of points (no position
 * stored; the point is spent, as rate-limiter-flexible's `consume` spends it).
 */
export async function savePosition(db: Db, code: string, fix: Fix, ip: string | null): Promise<AnswerResult> {
  const hash = sha256(code);
  // The application's clock, as everywhere a request's window and a limit's window are judged.
  const now = new Date();
  const nowMs = now.getTime();
  const access = buyerHasAccessSql(sql`request.user_id`, now);
  const heartbeatDue = new Date(nowMs - HEARTBEAT_WRITE_MS);
  const { rows } = await db.execute<SavedRow>(sql`
    with guard as (
      select ${limitReachedSql('consentMissPerIp', ip ?? 'unknown', nowMs)} as guessed_out
    ), request as (
      select id, status, user_id, expires_at, sharing_until from ${locationRequests}
      where ${locationRequests.consentCodeHash} = ${hash} and not (select guessed_out from guard)
      for no key update
    ), counted as (
      ${consumeOneSql('positionsPerRequest', hash, nowMs, sql`request`)}
    ), accepted as (
      select id from request
      where (select points from counted) <= ${LIMITS.positionsPerRequest.points}
        and status in (${LIVE_STATES_SQL}) and sharing_until > ${now} and ${access}
    ), stored as (
      insert into ${positions} (request_id, source, latitude, longitude, accuracy_m)
      select id, 'gps', ${fix.latitude}, ${fix.longitude}, ${fix.accuracy} from accepted
      returning id
    ), seen as (
      update ${locationRequests} set owner_seen_at = ${now} from accepted
      where ${locationRequests.id} = accepted.id and ${locationRequests.status} = 'sharing'
        and (${locationRequests.ownerSeenAt} is null or ${locationRequests.ownerSeenAt} <= ${heartbeatDue})
    )
    select guard.guessed_out, request.id, request.status, request.expires_at, request.sharing_until,
      (select points from counted) as points, (select expire from counted) as expire,
      exists (select 1 from stored) as stored, ${access} as access
    from guard left join request on true`);
  const [row] = rows;
  if (row.guessed_out) {
    throw new RateLimitedError(await retryAfterOf('consentMissPerIp', ip ?? 'unknown'));
  }
  if (row.id === null) return { error: 'not_found' };
  if (row.stored) return { status: 'sharing' };
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
  points: number | string | null;
  expire: number | string | null;
  stored: boolean;
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
  if (!(await applyEvent(db, id, 'page_visible', seen))) await markSeen(db, id, 'sharing', seen);
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
 * positions (positionsPerRequest). Returns the new state, `not_found` for an unknown code, `not_sharing` when no
 * share runs (the page then reloads its view).
 */
export async function recordPresence(db: Db, code: string, presence: Presence): Promise<AnswerResult> {
  const row = await byConsentCode(db, code);
  if (!row) return { error: 'not_found' };
  const status = await settleByClock(db, row.request.id, new Date(), row.request);
  if (!status || !isLive(status)) return { error: 'not_sharing' };
  await consume('positionsPerRequest', sha256(code));
  const id = row.request.id;
  if (presence === 'visible') {
    await heartbeat(db, id);
    return { status: 'sharing' };
  }
  // Already paused: the latest reason is kept.
  if (!(await applyEvent(db, id, 'page_hidden', { liveSignal: presence })))
    await markSeen(db, id, 'paused', { liveSignal: presence });
  return { status: 'paused' };
}
