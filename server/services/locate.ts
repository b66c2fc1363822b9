import 'server-only';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { consents, locationRequests, positions, users, type LocationRequest } from '../db/schema';
import { lookupIp } from './geoip';
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
    await db.update(locationRequests).set({ status: 'opened' }).where(eq(locationRequests.id, row.request.id));
    status = 'opened';
  }
  return {
    requester: maskEmail(row.buyerEmail),
    status,
    expiresAt: row.request.expiresAt.toISOString(),
    sharingUntil: row.request.sharingUntil?.toISOString() ?? null,
  };
}

export type ConsentMeta = { ip: string | null; userAgent: string | null; shownText: string };

export type AnswerResult =
  { status: LocationRequest['status'] } | { error: 'not_found' | 'expired' | 'answered' | 'not_sharing' };

/**
 * The owner's answer through the consent link (ARCHITECTURE §4, §6):
 * - `share`: records the consent (UTC time, IP, user agent, SHA-256 of the text shown, the duration), stores the
 *   IP-based location when the database knows the IP, and opens a sharing window of `minutes`;
 * - `decline`: records the refusal; nothing about the phone's position is stored;
 * - `stop`: ends sharing; the owner may share again.
 */
export async function answerConsent(
  db: Db,
  code: string,
  action: { action: 'share'; minutes: number } | { action: 'decline' } | { action: 'stop' },
  meta: ConsentMeta,
): Promise<AnswerResult> {
  const row = await byConsentCode(db, code);
  if (!row) return { error: 'not_found' };
  const status = await expireIfDue(db, row.request);
  const id = row.request.id;
  if (status === 'expired') return { error: 'expired' };
  const base = { requestId: id, ip: meta.ip, userAgent: meta.userAgent, textHash: sha256(meta.shownText) };

  if (action.action === 'decline') {
    if (!(OPEN_STATES as readonly string[]).includes(status)) return { error: 'answered' };
    await db.transaction(async (tx) => {
      await tx.insert(consents).values({ ...base, decision: 'declined' });
      await tx.update(locationRequests).set({ status: 'declined' }).where(eq(locationRequests.id, id));
    });
    return { status: 'declined' };
  }
  if (action.action === 'stop') {
    if (status !== 'sharing') return { error: 'not_sharing' };
    await db
      .update(locationRequests)
      .set({ status: 'stopped', sharingUntil: new Date() })
      .where(eq(locationRequests.id, id));
    return { status: 'stopped' };
  }
  if (status === 'declined') return { error: 'answered' };
  const ipLocation = meta.ip ? await lookupIp(meta.ip) : null;
  await db.transaction(async (tx) => {
    await tx.insert(consents).values({ ...base, decision: 'shared', durationMinutes: action.minutes });
    await tx
      .update(locationRequests)
      .set({ status: 'sharing', sharingUntil: new Date(Date.now() + action.minutes * 60_000) })
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
  });
  return { status: 'sharing' };
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

/** One page of `userId`'s requests, newest first, with each one's position count. */
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
