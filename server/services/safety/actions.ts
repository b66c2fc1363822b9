import 'server-only';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  consents,
  locationRequests,
  optOuts,
  positions,
  requestErasures,
  requesterBlocks,
  safetyCodes,
  safetySessions,
} from '../../db/schema';
import { isLive } from '../../../lib/request-machine';
import type { E164 } from '../../../lib/contracts/phone';
import { alertBuyer, alertFor, applyEvent, applyEventWhere, type BuyerAlert } from '../locate';
import { optOut } from '../messaging';
import { sha256 } from '../tokens';
import { onlyOf, referencesOf } from './overview';

// What the owner does in the safety centre: stop everything, block, erase, report; and its upkeep.

/** Who acted and the text they were shown, for the consent records the safety centre writes (like the consent page). */
export type SafetyMeta = { ip: string | null; userAgent: string | null; shownText: string };

/** Writes one consent record per request in `ids` with `decision`, as the consent page does (services/locate/consent.ts). */
async function record(
  tx: Tx,
  ids: string[],
  e164: E164,
  decision: 'stopped' | 'declined' | 'reported',
  meta: SafetyMeta,
  reason: string | null = null,
): Promise<void> {
  if (!ids.length) return;
  const textHash = sha256(meta.shownText);
  await tx.insert(consents).values(
    ids.map((requestId) => ({
      requestId,
      targetE164: e164,
      decision,
      ip: meta.ip,
      userAgent: meta.userAgent,
      textHash,
      reason,
    })),
  );
}

/**
 * Ends the requests to `e164` matched by `where` through the request state machine: every live one takes
 * `stopped_by_owner` (its window ends now), every unanswered one `declined`, each with its consent record, exactly as
 * the consent page's Stop and Decline. Each event is one conditional UPDATE, so callers at once never record a
 * request twice: a request moved by one is no longer in a state the other's event may be taken in.
 */
async function endRequests(tx: Tx, e164: E164, meta: SafetyMeta, where?: ReturnType<typeof eq>) {
  const scope = and(eq(locationRequests.targetE164, e164), where);
  const stopped = await applyEventWhere(tx, 'stopped_by_owner', scope, { sharingUntil: new Date() });
  await record(tx, stopped, e164, 'stopped', meta);
  const declined = await applyEventWhere(tx, 'declined', scope);
  await record(tx, declined, e164, 'declined', meta);
  await alertBuyers(tx, stopped, 'stopped');
  await alertBuyers(tx, declined, 'declined');
  return { stopped: stopped.length, declined: declined.length };
}

/** Alerts the buyer of each of `ids` (services/locate/buyer-alerts.ts) in `tx`; the outbox announces the alerts at
 * commit. */
async function alertBuyers(tx: Tx, ids: string[], kind: BuyerAlert): Promise<void> {
  if (!ids.length) return;
  const requests = await tx.select().from(locationRequests).where(inArray(locationRequests.id, ids));
  for (const request of requests) await alertBuyer(tx, request, kind);
}

/**
 * Stop everything now: every sharing request to `e164` ends (`stopped_by_owner`; the buyers read "stopped by the
 * owner") and every pending one is declined, with their consent records, and their buyers are alerted as by the
 * consent page. Returns how many of each this call ended (0 and 0 when another call did it first).
 */
export async function stopEverything(db: Db, e164: E164, meta: SafetyMeta, requesterId: string | null = null) {
  return db.transaction((tx) => endRequests(tx, e164, meta, onlyOf(requesterId)));
}

/**
 * Request `requestId` when it was made to `e164` (and, for a `link` session, by `requesterId`), locked `FOR UPDATE`
 * for the rest of `tx` so that an action on it and the owner's other actions take turns; undefined otherwise.
 */
async function lockOwnRequest(tx: Tx, e164: E164, requestId: string, requesterId: string | null) {
  const [request] = await tx
    .select()
    .from(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.targetE164, e164), onlyOf(requesterId)))
    .for('update');
  return request;
}

/**
 * The buyer of request `requestId` when it was made to `e164` (and, for a `link` session, by `requesterId`); null for
 * another number's or another requester's request, or an unknown id.
 */
async function buyerOf(
  db: Db | Tx,
  e164: E164,
  requestId: string,
  requesterId: string | null = null,
): Promise<string | null> {
  const [row] = await db
    .select({ userId: locationRequests.userId })
    .from(locationRequests)
    .where(and(eq(locationRequests.id, requestId), eq(locationRequests.targetE164, e164), onlyOf(requesterId)))
    .limit(1);
  return row?.userId ?? null;
}

/**
 * Blocks the requester of `requestId` from `e164`: that buyer account can no longer ask this number (new requests and
 * new links are refused before any SMS, services/locate/sms-guards.ts `ownerRefusal`), and its requests to this number
 * still running or waiting end (see `endRequests`). Other requesters are not affected. Taken under the SMS queue's
 * lock, so an order racing the block either committed its request before (and it is ended here) or sees the block.
 * Returns true, or null when the request is not this number's.
 */
export async function blockRequester(
  db: Db,
  e164: E164,
  requestId: string,
  meta: SafetyMeta,
  requesterId: string | null = null,
): Promise<true | null> {
  return db.transaction(async (tx) => {
    const userId = await buyerOf(tx, e164, requestId, requesterId);
    if (!userId) return null;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-queue'))`);
    await tx.insert(requesterBlocks).values({ phoneE164: e164, userId }).onConflictDoNothing();
    await endRequests(tx, e164, meta, eq(locationRequests.userId, userId));
    return true;
  });
}

/** Lifts the owner's block of the requester of `requestId`. False when the request is not this number's. */
export async function unblockRequester(db: Db, e164: E164, requestId: string): Promise<boolean> {
  const userId = await buyerOf(db, e164, requestId);
  if (!userId) return false;
  await db.delete(requesterBlocks).where(and(eq(requesterBlocks.phoneE164, e164), eq(requesterBlocks.userId, userId)));
  return true;
}

/** Block everyone: puts `e164` on the opt-out list (no more consent SMS), as STOP does. Idempotent. */
export async function blockEveryone(db: Db, e164: E164): Promise<void> {
  await optOut(db, e164, 'stop');
}

/**
 * Undoes Block everyone: takes `e164` off the opt-out list, unless an operator put it there (false then). True when the
 * number is not on the list afterwards.
 */
export async function unblockEveryone(db: Db, e164: E164): Promise<boolean> {
  await db.delete(optOuts).where(and(eq(optOuts.phoneE164, e164), inArray(optOuts.reason, ['report', 'stop'])));
  const [left] = await db.select().from(optOuts).where(eq(optOuts.phoneE164, e164)).limit(1);
  return !left;
}

/**
 * Deletes what was shared with request `requestId` of `e164`: a running share is stopped first (`stopped_by_owner`,
 * recorded), then every position is deleted, so the requester's map is empty at its next read; the deletion time is
 * kept. The consent records stay for CONSENT_RETENTION_DAYS (proof of who decided what and when). Returns how many
 * positions were deleted, or null when the request is not this number's.
 */
export async function eraseShared(
  db: Db,
  e164: E164,
  requestId: string,
  meta: SafetyMeta,
  requesterId: string | null = null,
): Promise<{ deleted: number } | null> {
  return db.transaction(async (tx) => {
    const request = await lockOwnRequest(tx, e164, requestId, requesterId);
    if (!request) return null;
    if (isLive(request.status) && (await applyEvent(tx, requestId, 'stopped_by_owner', { sharingUntil: new Date() }))) {
      await record(tx, [requestId], e164, 'stopped', meta);
      await alertBuyer(tx, request, 'stopped');
    }
    const deleted = await tx
      .delete(positions)
      .where(eq(positions.requestId, requestId))
      .returning({ id: positions.id });
    await tx
      .insert(requestErasures)
      .values({ requestId })
      .onConflictDoUpdate({ target: requestErasures.requestId, set: { erasedAt: new Date() } });
    return { deleted: deleted.length };
  });
}

/**
 * Reports request `requestId` of `e164` as abuse, as the consent page's Report does (services/locate/consent.ts
 * `answerConsent`): the number goes on the opt-out list, the report is recorded with the owner's optional `reason`
 * (already checked by the route), and the request takes the `reported` event; its buyer reads it as a decline or a
 * stop (services/locate/buyer-alerts.ts `alertFor`). Returns the request's reference to quote, or null when the request
 * is not this number's.
 */
export async function reportRequest(
  db: Db,
  e164: E164,
  requestId: string,
  reason: string | null,
  meta: SafetyMeta,
  requesterId: string | null = null,
): Promise<{ reference: string } | null> {
  const reported = await db.transaction(async (tx) => {
    const request = await lockOwnRequest(tx, e164, requestId, requesterId);
    if (!request) return null;
    await optOut(tx, e164, 'report', requestId);
    await record(tx, [requestId], e164, 'reported', meta, reason);
    const reported = await applyEvent(tx, requestId, 'reported', { sharingUntil: null });
    const kind = reported ? alertFor(reported, isLive(request.status)) : null;
    if (kind) await alertBuyer(tx, request, kind);
    return true;
  });
  if (!reported) return null;
  const reference = (await referencesOf(db, [requestId])).get(requestId);
  return reference ? { reference } : null;
}

/**
 * Deletes ended safety-centre sessions and one-time codes (the daily retention run): neither is of use once its time
 * is over, and a number's row says we sent it something. Returns how many of each.
 */
export async function pruneSafety(db: Db, now = new Date()): Promise<{ sessions: number; codes: number }> {
  const sessions = await db
    .delete(safetySessions)
    .where(lt(safetySessions.expiresAt, now))
    .returning({ at: safetySessions.expiresAt });
  const codes = await db
    .delete(safetyCodes)
    .where(lt(safetyCodes.expiresAt, now))
    .returning({ at: safetyCodes.expiresAt });
  return { sessions: sessions.length, codes: codes.length };
}
