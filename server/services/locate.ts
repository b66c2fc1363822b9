import 'server-only';
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { FUNNEL } from '../../lib/tracking/funnel';
import { consents, locationRequests, optOuts, positions, users, type LocationRequest } from '../db/schema';
import { recordRequestEvent } from './events';
import { lookupIp } from './geoip';
import { emailSharingStarted } from './notifications';
import { consume } from './rate-limit';
import { optOut } from './sms-guards';
import { maskEmail, sha256 } from './tokens';

/** Sharing durations the owner may choose (minutes); default 60 (ISSUE 5). */
export const SHARE_PRESETS = [15, 60, 480] as const;

const OPEN_STATES = ['queued', 'sms_sent', 'opened'] as const;

/** Marks a request `expired` when its link has passed `expiresAt` before any answer; returns the current status. */
async function expireIfDue(db: Db, request: LocationRequest): Promise<LocationRequest['status']> {
  if ((OPEN_STATES as readonly string[]).includes(request.status) && request.expiresAt.getTime() < Date.now()) {
    await db.update(locationRequests).set({ status: 'expired' }).where(eq(locationRequests.id, request.id));
    return 'expired';
  }
  if (request.status === 'sharing' && request.sharingUntil && request.sharingUntil.getTime() < Date.now()) {
    await db.update(locationRequests).set({ status: 'stopped' }).where(eq(locationRequests.id, request.id));
    return 'stopped';
  }
  return request.status;
}

async function byConsentCode(db: Db, code: string) {
  const [row] = await db
    .select({ request: locationRequests, buyerEmail: users.email })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .where(eq(locationRequests.consentCodeHash, sha256(code)))
    .limit(1);
  return row ?? null;
}

/**
 * What the consent page shows for `code`: the requester's masked e-mail, the status and the link's expiry. The first
 * view moves the request to `opened`. Null for an unknown code.
 */
export async function consentView(db: Db, code: string) {
  const row = await byConsentCode(db, code);
  if (!row) return null;
  let status = await expireIfDue(db, row.request);
  if (status === 'queued' || status === 'sms_sent') {
    await db.transaction(async (tx) => {
      const moved = await tx
        .update(locationRequests)
        .set({ status: 'opened' })
        .where(and(eq(locationRequests.id, row.request.id), inArray(locationRequests.status, ['queued', 'sms_sent'])))
        .returning({ id: locationRequests.id });
      if (moved.length) await recordRequestEvent(tx, FUNNEL.consentOpened, row.request.id);
    });
    status = 'opened';
  }
  return {
    requester: maskEmail(row.buyerEmail),
    status,
    expiresAt: row.request.expiresAt.toISOString(),
    sharingUntil: row.request.sharingUntil?.toISOString() ?? null,
  };
}

/** Who answered, and the text they were shown (built from the requester's masked e-mail, hashed into the record). */
export type ConsentMeta = { ip: string | null; userAgent: string | null; shownText: (requester: string) => string };

export type AnswerResult =
  { status: LocationRequest['status'] } | { error: 'not_found' | 'expired' | 'answered' | 'not_sharing' };

export type ConsentAction =
  { action: 'share'; minutes: number } | { action: 'decline' } | { action: 'stop' } | { action: 'report' };

/**
 * The owner's answer through the consent link (ARCHITECTURE §4, §6), in one transaction with the request row locked,
 * so the same answer sent many times at once is recorded once:
 * - `share`: records the consent (UTC time, IP, user agent, SHA-256 of the text shown, the duration), stores the
 *   IP-based location when the database knows the IP, and opens a sharing window of `minutes`; the first share
 *   e-mails the buyer a link to the map;
 * - `decline`: records the refusal; nothing about the phone's position is stored;
 * - `stop`: ends sharing; the owner may share again;
 * - `report`: puts the number on the opt-out list (no more SMS to it) and ends the request.
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
  await expireIfDue(db, found.request);
  const ipLocation = action.action === 'share' && meta.ip ? await lookupIp(meta.ip) : null;
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(locationRequests)
      .where(eq(locationRequests.id, found.request.id))
      .for('update');
    const { id, status } = request;
    const textHash = sha256(meta.shownText(maskEmail(found.buyerEmail)));
    const base = { requestId: id, ip: meta.ip, userAgent: meta.userAgent, textHash };
    const open = (OPEN_STATES as readonly string[]).includes(status);

    if (action.action === 'report') {
      await optOut(tx, request.targetE164, 'report', id);
      const next = status === 'sharing' || status === 'stopped' ? 'stopped' : open ? 'declined' : status;
      if (open) await tx.insert(consents).values({ ...base, decision: 'declined' });
      await tx.update(locationRequests).set({ status: next, sharingUntil: null }).where(eq(locationRequests.id, id));
      return { status: next };
    }
    if (status === 'expired') return { error: 'expired' };
    if (action.action === 'decline') {
      if (status === 'declined') return { status };
      if (!open) return { error: 'answered' };
      await tx.insert(consents).values({ ...base, decision: 'declined' });
      await tx.update(locationRequests).set({ status: 'declined' }).where(eq(locationRequests.id, id));
      return { status: 'declined' };
    }
    if (action.action === 'stop') {
      if (status === 'stopped') return { status };
      if (status !== 'sharing') return { error: 'not_sharing' };
      await tx
        .update(locationRequests)
        .set({ status: 'stopped', sharingUntil: new Date() })
        .where(eq(locationRequests.id, id));
      return { status: 'stopped' };
    }
    if (status === 'declined') return { error: 'answered' };
    if (status === 'sharing') return { status };
    const [optedOut] = await tx.select().from(optOuts).where(eq(optOuts.phoneE164, request.targetE164));
    if (optedOut) return { error: 'answered' };
    await tx.insert(consents).values({ ...base, decision: 'shared', durationMinutes: action.minutes });
    await tx
      .update(locationRequests)
      .set({
        status: 'sharing',
        sharingUntil: new Date(Date.now() + action.minutes * 60_000),
        firstSharedAt: request.firstSharedAt ?? new Date(),
      })
      .where(eq(locationRequests.id, id));
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
    if (!request.firstSharedAt) await recordRequestEvent(tx, FUNNEL.shared, id);
    const outboxIds = request.firstSharedAt ? [] : [await emailSharingStarted(tx, request)];
    return { status: 'sharing', outboxIds };
  });
}

/**
 * Stores a browser GPS position (degrees, accuracy in metres) for the request of `code`. Accepted only while the
 * request is `sharing` and inside its window (ARCHITECTURE §4).
 */
export async function savePosition(
  db: Db,
  code: string,
  position: { latitude: number; longitude: number; accuracy: number },
): Promise<AnswerResult> {
  const row = await byConsentCode(db, code);
  if (!row) return { error: 'not_found' };
  const status = await expireIfDue(db, row.request);
  if (status !== 'sharing') return { error: 'not_sharing' };
  await consume('positionsPerRequest', row.request.id);
  await db.insert(positions).values({
    requestId: row.request.id,
    source: 'gps',
    latitude: position.latitude,
    longitude: position.longitude,
    accuracyM: position.accuracy,
  });
  return { status };
}

/** A request of `userId` with its newest positions (max 100, newest first); null when absent or someone else's. */
export async function requestWithPositions(db: Db, userId: string, id: string) {
  const [request] = await db
    .select()
    .from(locationRequests)
    .where(and(eq(locationRequests.id, id), eq(locationRequests.userId, userId)))
    .limit(1);
  if (!request) return null;
  const status = await expireIfDue(db, request);
  const list = await db
    .select()
    .from(positions)
    .where(eq(positions.requestId, id))
    .orderBy(desc(positions.recordedAt), desc(positions.id))
    .limit(100);
  return {
    id: request.id,
    phone: request.targetE164,
    status,
    createdAt: request.createdAt.toISOString(),
    sharingUntil: request.sharingUntil?.toISOString() ?? null,
    positions: list.map((p) => ({
      source: p.source,
      latitude: p.latitude,
      longitude: p.longitude,
      accuracy: p.accuracyM,
      label: p.label,
      recordedAt: p.recordedAt.toISOString(),
    })),
  };
}

/** One page of `userId`'s requests, newest first, with each one's position count and its SMS's status. */
export async function listRequests(db: Db, userId: string, pageNum: number, pageSize: number) {
  const where = eq(locationRequests.userId, userId);
  const [{ total }] = await db.select({ total: count() }).from(locationRequests).where(where);
  const rows = await db
    .select({
      id: locationRequests.id,
      phone: locationRequests.targetE164,
      status: locationRequests.status,
      createdAt: locationRequests.createdAt,
      positions: count(positions.id),
      // The consent SMS's own status (Twilio callbacks can mark it delivered); null before it is written.
      smsStatus: sql<
        string | null
      >`(select m.status from outbound_messages m where m.location_request_id = "location_requests"."id" order by m.created_at desc limit 1)`,
    })
    .from(locationRequests)
    .leftJoin(positions, eq(positions.requestId, locationRequests.id))
    .where(where)
    .groupBy(locationRequests.id)
    .orderBy(desc(locationRequests.createdAt))
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize);
  return {
    list: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
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
 * `retentionDays` ago are deleted (POSITION_RETENTION_DAYS). Returns how many rows each step touched.
 */
export async function runLocateMaintenance(db: Db, retentionDays: number) {
  const now = new Date();
  const expired = await db
    .update(locationRequests)
    .set({ status: 'expired' })
    .where(and(inArray(locationRequests.status, [...OPEN_STATES]), lt(locationRequests.expiresAt, now)))
    .returning({ id: locationRequests.id });
  const stopped = await db
    .update(locationRequests)
    .set({ status: 'stopped' })
    .where(and(eq(locationRequests.status, 'sharing'), lt(locationRequests.sharingUntil, now)))
    .returning({ id: locationRequests.id });
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600_000);
  const ended = db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(
      and(inArray(locationRequests.status, ['stopped', 'declined', 'expired']), lt(locationRequests.updatedAt, cutoff)),
    );
  const purged = await db.delete(positions).where(inArray(positions.requestId, ended)).returning({ id: positions.id });
  return { expired: expired.length, stopped: stopped.length, purgedPositions: purged.length };
}
