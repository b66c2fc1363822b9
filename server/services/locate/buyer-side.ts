import 'server-only';
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { LocationTrace, Position, RequestPage } from '../../../lib/contracts/locations';
import type { Db } from '../../db/client';
import { consents, locationRequests, positions, requestErasures, requestViews } from '../../db/schema';
import {
  ENDED_STATES,
  LIVE_STATES,
  OPEN_STATES,
  buyerState,
  isLive,
  type RequestState,
} from '../../../lib/request-machine';
import { applyEventWhere, linkTimeUp, settleByClock, windowOver } from './request-transitions';
import { updatedSince } from './notifications';
import { alertSilentShares } from './buyer-alerts';
import { nearestPlace } from './places';

// The buyer's side of location requests (docs/rules.md "States", "Live location" and "Retention"): the list of their
// requests, one request's trace with the nearest named place, clearing positions (a live stream's reads are
// ./live-reads.ts), the safety centre's log of map views, and the maintenance job (links and windows that ran out, silent
// shares, positions and consent records past their retention). Every function that takes the caller's id reads only
// their rows.

/**
 * Records that the buyer opened the map of request `requestId` during a share, for the safety centre's view log
 * (`request_views`, which services/safety reads to show the owner when their share was watched): at most one row a
 * minute per request, one INSERT … WHERE NOT EXISTS on the request's index. Written here, where the buyer reads the
 * trace, so that locate does not import the safety centre, which imports locate.
 */
export async function recordMapView(db: Db, requestId: string): Promise<void> {
  await db.execute(sql`insert into ${requestViews} (request_id)
    select ${requestId}::uuid where not exists (
      select 1 from ${requestViews} v where v.request_id = ${requestId}::uuid and v.viewed_at > now() - interval '1 minute')`);
}

/**
 * A request of `userId` with its newest positions (max 100, newest first; each with its increasing `id`, the live
 * stream's event id), what the owner's page last said (`ownerSeenAt`, `liveSignal`, for lib/live-state.ts), how a
 * stopped share ended, whether the owner deleted what they had shared (`erased`, the safety centre's "Delete what was
 * shared": positions gone, consent records kept), and the named place nearest to the newest GPS fix (offline
 * gazetteer, services/locate/places.ts; null when none within 100 km or no fix); null when the request is absent or
 * someone else's.
 */
export async function requestWithPositions(db: Db, userId: string, id: string): Promise<LocationTrace | null> {
  const [request] = await db
    .select()
    .from(locationRequests)
    .where(and(eq(locationRequests.id, id), eq(locationRequests.userId, userId)))
    .limit(1);
  if (!request) return null;
  const state = (await settleByClock(db, request.id, new Date(), request)) ?? request.status;
  // The buyer reading a live request's trace is a map view the owner sees in the safety centre (services/safety).
  if (isLive(state)) await recordMapView(db, request.id);
  const status = buyerState(state, request.firstSharedAt !== null);
  const list = await db
    .select()
    .from(positions)
    .where(eq(positions.requestId, id))
    .orderBy(desc(positions.recordedAt), desc(positions.id))
    .limit(100);
  const [erasure] = await db
    .select({ at: requestErasures.erasedAt })
    .from(requestErasures)
    .where(eq(requestErasures.requestId, id));
  const newestGps = list.find((p) => p.source === 'gps');
  const place = newestGps ? await nearestPlace(newestGps.latitude, newestGps.longitude) : null;
  const [last] =
    status === 'stopped'
      ? await db
          .select({ decision: consents.decision })
          .from(consents)
          .where(eq(consents.requestId, id))
          .orderBy(desc(consents.createdAt))
          .limit(1)
      : [];
  return {
    id: request.id,
    phone: request.targetE164,
    status,
    /** The owner tapped Share but the browser's location was refused: "opened, location not allowed". */
    locationDenied: request.locationDeniedAt !== null && status !== 'sharing',
    /** Ended because the subscription ended. */
    withdrawn: request.withdrawnAt !== null,
    /** The owner deleted what they had shared (safety centre): an empty map is theirs, not a failure of ours. */
    erased: !!erasure,
    createdAt: request.createdAt.toISOString(),
    sharingUntil: request.sharingUntil?.toISOString() ?? null,
    /** The requester's ask for more time in this share. */
    moreTime: request.moreTimeAsk,
    /** When the owner's page last spoke during a share (heartbeat or fix), for "offline" (lib/live-state.ts). */
    ownerSeenAt: request.ownerSeenAt?.toISOString() ?? null,
    /** Why a share is paused, as the owner's page said it. */
    liveSignal: request.liveSignal,
    /** For a stopped request: stopped by the owner, or the chosen duration ran out. */
    ended: (status === 'stopped' ? (last?.decision === 'stopped' ? 'owner' : 'time') : null) as 'owner' | 'time' | null,
    positions: list.map(positionOf),
    place,
  };
}

/** A stored position as the API gives it (lib/contracts/locations.ts `positionSchema`; ISO 8601 UTC time). */
export function positionOf(p: typeof positions.$inferSelect): Position {
  return {
    id: p.id,
    source: p.source,
    latitude: p.latitude,
    longitude: p.longitude,
    accuracy: p.accuracyM,
    precision: p.precision,
    label: p.label,
    recordedAt: p.recordedAt.toISOString(),
  };
}

/**
 * One page of `userId`'s requests, newest first, with each one's position count, the time of its newest position (for
 * "last position 52 min ago"), its SMS's status, whether the owner deleted what they had shared (`erased`), and whether
 * it changed since `since` (when the subscriber last looked: `notificationsSeenAt`).
 */
export async function listRequests(
  db: Db,
  userId: string,
  pageNum: number,
  pageSize: number,
  since: Date,
): Promise<Pick<RequestPage, 'list' | 'total' | 'pageNum' | 'pageSize'>> {
  const where = eq(locationRequests.userId, userId);
  const [{ total }] = await db.select({ total: count() }).from(locationRequests).where(where);
  const rows = await db
    .select({
      id: locationRequests.id,
      phone: locationRequests.targetE164,
      status: locationRequests.status,
      everShared: sql<boolean>`(${locationRequests.firstSharedAt} is not null)`,
      locationDenied: sql<boolean>`(${locationRequests.locationDeniedAt} is not null)`,
      withdrawn: sql<boolean>`(${locationRequests.withdrawnAt} is not null)`,
      // The owner deleted what they had shared in the safety centre (services/safety/ `eraseShared`).
      erased: sql<boolean>`exists (select 1 from ${requestErasures} e where e.request_id = ${locationRequests.id})`,
      createdAt: locationRequests.createdAt,
      positions: count(positions.id),
      lastPositionAt: sql<Date | null>`max(${positions.recordedAt})`,
      updated: updatedSince(since),
      // The consent SMS's own status (Twilio callbacks can mark it delivered); null before it is written.
      smsStatus: sql<
        string | null
      >`(select m.status from outbound_messages m where m.location_request_id = "location_requests"."id" order by m.created_at desc limit 1)`,
      // When the provider took the newest consent SMS; null while it waits in the outbox.
      smsSentAt: sql<
        string | null
      >`(select m.sent_at from outbound_messages m where m.location_request_id = "location_requests"."id" order by m.created_at desc limit 1)`,
      expiresAt: locationRequests.expiresAt,
      ownerSeenAt: locationRequests.ownerSeenAt,
      liveSignal: locationRequests.liveSignal,
    })
    .from(locationRequests)
    .leftJoin(positions, eq(positions.requestId, locationRequests.id))
    .where(where)
    .groupBy(locationRequests.id)
    .orderBy(desc(locationRequests.createdAt))
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize);
  return {
    list: rows.map(({ everShared, ...r }) => ({
      ...r,
      status: buyerState(r.status as RequestState, everShared),
      createdAt: r.createdAt.toISOString(),
      lastPositionAt: r.lastPositionAt ? new Date(r.lastPositionAt).toISOString() : null,
      smsSentAt: r.smsSentAt ? new Date(r.smsSentAt).toISOString() : null,
      expiresAt: r.expiresAt.toISOString(),
      ownerSeenAt: r.ownerSeenAt?.toISOString() ?? null,
    })),
    total,
    pageNum,
    pageSize,
  };
}

/** Deletes every position of the caller's request `id`; returns how many, or null when it is absent or not theirs. */
export async function clearPositions(db: Db, userId: string, id: string): Promise<number | null> {
  const [request] = await db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(and(eq(locationRequests.id, id), eq(locationRequests.userId, userId)));
  if (!request) return null;
  const deleted = await db.delete(positions).where(eq(positions.requestId, id)).returning({ id: positions.id });
  return deleted.length;
}

/**
 * Periodic upkeep (a pg-boss cron job, every minute): requests whose link passed its expiry unanswered become
 * `expired`; sharing windows that ended become `stopped`; positions of requests that ended more than
 * `retentionDays` ago are deleted (POSITION_RETENTION_DAYS); consent records are deleted `consentDays` after that
 * (CONSENT_RETENTION_DAYS); live shares silent for 5 minutes are announced to their buyers
 * (services/locate/buyer-alerts.ts `alertSilentShares`). Returns how many rows each step touched (`alerts`: how many
 * buyers were alerted).
 */
export async function runLocateMaintenance(db: Db, retentionDays: number, consentDays = 365) {
  const now = new Date();
  const expired = await applyEventWhere(db, 'link_expired', linkTimeUp(now));
  const stopped = await applyEventWhere(db, 'window_ended', windowOver(now));
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600_000);
  const ended = db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(and(inArray(locationRequests.status, [...ENDED_STATES]), lt(locationRequests.updatedAt, cutoff)));
  const purged = await db.delete(positions).where(inArray(positions.requestId, ended)).returning({ id: positions.id });
  const purgedConsents = await purgeConsents(db, new Date(cutoff.getTime() - consentDays * 24 * 3600_000));
  const alerts = await alertSilentShares(db, now);
  return { expired: expired.length, stopped: stopped.length, purgedPositions: purged.length, purgedConsents, alerts };
}

/**
 * Deletes consent records older than `before` whose request has ended before it too (or no longer exists). The
 * records are append-only: the trigger lets only this transaction delete, by `SET LOCAL app.consent_purge`.
 */
async function purgeConsents(db: Db, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local app.consent_purge = 'on'`);
    const rows = await tx
      .delete(consents)
      .where(
        and(
          lt(consents.createdAt, before),
          sql`not exists (select 1 from ${locationRequests} r where r.id = ${consents.requestId}
            and (r.status in (${sql.join(
              [...OPEN_STATES, ...LIVE_STATES].map((s) => sql`${s}`),
              sql`, `,
            )}) or r.updated_at >= ${before}))`,
        ),
      )
      .returning({ id: consents.id });
    return rows.length;
  });
}
