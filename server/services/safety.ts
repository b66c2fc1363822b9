import 'server-only';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  consents,
  locationRequests,
  optOuts,
  outboundMessages,
  positions,
  requestErasures,
  requestReferences,
  requestViews,
  requesterBlocks,
  safetyCodes,
  safetySessions,
  users,
} from '../db/schema';
import { LIVE_STATES, OPEN_STATES, isLive } from '../../lib/request-machine';
import type { E164 } from '../../lib/contracts/phone';
import type { SafetyRequest } from '../../lib/contracts/safety';
import { env } from '../env';
import { CROCKFORD_ALPHABET } from './order-reference';
import { applyEvent, applyEventWhere, settleByClock } from './request-transitions';
import { alertBuyer, alertFor, type BuyerAlert } from './buyer-alerts';
import { optOut } from './sms-guards';
import { translate } from '../i18n';
import { languageOf } from '../../i18n/routing';
import { maskEmail, randomToken, sha256 } from './tokens';

// The phone owner's safety centre: every request made to one number, who asked, and one tap to stop it all (Apple's
// Safety Check for the single place and the quick exit; IETF DULT threat model for telling the tracked person who
// tracks and giving them an identifier to report; the UK operators' code of practice for location services for the
// located phone staying in control). Everything here is scoped to the one number a session was opened for.

/** How long a safety-centre session lasts from its opening, ms (short: a shared or stolen phone exposes little). */
export const SAFETY_SESSION_MS = 30 * 60_000;
/** How long a one-time code sent by SMS works, ms. */
export const SAFETY_CODE_MS = 10 * 60_000;
/** Wrong tries a one-time code takes, from all clients together, before it stops working. */
export const SAFETY_CODE_TRIES = 5;

/** Who acted and the text they were shown, for the consent records the safety centre writes (like the consent page). */
export type SafetyMeta = { ip: string | null; userAgent: string | null; shownText: string };

/** How a session was opened: with a consent link's code (`link`) or a one-time code sent by SMS (`sms`). */
export type SessionVia = 'link' | 'sms';

/**
 * Opens a session for `e164`, opened `via` a consent link or an SMS code: a random token of 256 bits whose SHA-256
 * only is stored, ending SAFETY_SESSION_MS from now. Returns the token (the cookie's value) and the end.
 */
async function openSession(
  db: Db | Tx,
  e164: E164,
  via: SessionVia,
  requesterId: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + SAFETY_SESSION_MS);
  await db.insert(safetySessions).values({ tokenHash: sha256(token), phoneE164: e164, via, requesterId, expiresAt });
  // Ended sessions of this number are of no use to anyone: dropped while we are here.
  await db
    .delete(safetySessions)
    .where(and(eq(safetySessions.phoneE164, e164), lt(safetySessions.expiresAt, new Date())));
  return { token, expiresAt };
}

/**
 * Opens the safety centre of the number a consent `code` (from the SMS link) was sent to. The requester may hold the
 * same link (it is shown to them to pass on when an SMS fails), so such a session (`link`) is scoped to the requests of
 * the link's requester (`requesterId`): it never shows another requester of the number, nor acts on their requests,
 * and it cannot undo a block (see `canUndoBlocks`). The whole centre needs a code sent by SMS to the number. Null for an
 * unknown code (the caller counts it as a guess).
 */
export async function sessionFromConsentCode(db: Db, code: string): Promise<{ token: string; expiresAt: Date } | null> {
  const [row] = await db
    .select({ e164: locationRequests.targetE164, userId: locationRequests.userId })
    .from(locationRequests)
    .where(eq(locationRequests.consentCodeHash, sha256(code)))
    .limit(1);
  return row ? openSession(db, row.e164, 'link', row.userId) : null;
}

/**
 * The number a live session `token` is for, how it was opened and, for a `link` session, the one requester it is
 * scoped to (`requesterId`); null for an unknown, ended or absent token.
 */
export async function sessionOf(
  db: Db,
  token: string | undefined | null,
): Promise<{ e164: E164; via: SessionVia; requesterId: string | null } | null> {
  if (!token) return null;
  const [row] = await db
    .select({ e164: safetySessions.phoneE164, via: safetySessions.via, requesterId: safetySessions.requesterId })
    .from(safetySessions)
    .where(and(eq(safetySessions.tokenHash, sha256(token)), gt(safetySessions.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/**
 * Whether a session opened `via` may undo a block (unblock a requester, allow requests again): only one opened with a
 * one-time code sent by SMS to the number. A consent link's code is also in the requester's hands, and a requester
 * must never be able to lift the owner's block on them.
 */
export const canUndoBlocks = (via: SessionVia): boolean => via === 'sms';

/**
 * Whether a session opened `via` may put the whole number on the opt-out list (Block everyone): only one opened with a
 * one-time code sent by SMS to the number. A consent link is also in its requester's hands, and a requester must never
 * be able to shut every other requester out of the number (docs/rules.md#consent); a link session blocks, declines and
 * reports its own requester's requests only.
 */
export const canBlockEveryone = (via: SessionVia): boolean => via === 'sms';

/** Ends session `token` (the quick exit and "leave"). Idempotent. */
export async function closeSession(db: Db, token: string | undefined | null): Promise<void> {
  if (token) await db.delete(safetySessions).where(eq(safetySessions.tokenHash, sha256(token)));
}

/** A new one-time code: 6 random digits (crypto `randomInt`). */
const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Sends the one-time code of `e164`'s safety centre by SMS, in `language` (the text is `Sms.safetyCode` of
 * messages/{en,es,id}.json). The code is 6 digits, works SAFETY_CODE_MS from its last sending and takes
 * SAFETY_CODE_TRIES wrong tries from all clients together. Asking again while the code still works sends **the same
 * code** again (its tries are not given back; its time starts again), so that a second ask, the owner's or anyone's,
 * never makes the code the owner is typing useless; a new code is drawn only once the last one has ended or used its
 * tries. The SMS goes only to a number we already sent a consent SMS to, not to a number on the opt-out list unless
 * `ownerLink` (the ask comes from a safety-centre session opened with one of this number's consent links), and within
 * the service's global daily SMS cap (SMS_GLOBAL_DAILY_CAP). The consent-SMS cap per number does not apply: requesters
 * fill it; the code's own ceilings are the caller's rate limits (docs/decisions/0016-safety-code-limits.md).
 *
 * Every ask does the same work whether or not anything is sent, so that neither the answer nor its time tells whether
 * the number has requests: the same statements in the same order, each writing (a number we never texted gets a
 * decoy row whose code is null and never opens anything; see `verifySafetyCode`), all under the SMS queue's lock.
 * Returns the code SMS's row id (the outbox announces it at commit), or null when nothing was sent.
 */
export async function sendSafetyCode(
  db: Db,
  e164: E164,
  language: string,
  { ownerLink = false }: { ownerLink?: boolean } = {},
): Promise<string | null> {
  const now = new Date();
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  return db.transaction(async (tx) => {
    // The same lock as every consent SMS (services/requests.ts), so the global cap and this number's code hold.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-queue'))`);
    const [facts] = (
      await tx.execute<{
        known: boolean;
        opted_out: boolean;
        sent_today: number;
        code: string | null;
        expires_at: Date | string | null;
        attempts: number | null;
      }>(sql`select
        exists (select 1 from ${outboundMessages} m where m.channel = 'sms' and m.recipient = ${e164}
          and m.location_request_id is not null) as known,
        exists (select 1 from ${optOuts} o where o.phone_e164 = ${e164}) as opted_out,
        (select count(*)::int from ${outboundMessages} m where m.channel = 'sms' and m.created_at > ${dayAgo}) as sent_today,
        c.code, c.expires_at, c.attempts
        from (select 1) one left join ${safetyCodes} c on c.phone_e164 = ${e164}`)
    ).rows;
    const send = facts.known && (!facts.opted_out || ownerLink) && facts.sent_today < env().SMS_GLOBAL_DAILY_CAP;
    const live =
      facts.code !== null &&
      facts.expires_at !== null &&
      new Date(facts.expires_at) > now &&
      (facts.attempts ?? 0) < SAFETY_CODE_TRIES;
    const code = live ? facts.code! : newCode();
    const expiresAt = new Date(now.getTime() + SAFETY_CODE_MS);
    // One statement either way: sent, the code (the same one while it lives) with its time started again; not sent,
    // the row as it was, or a decoy where there was none.
    await tx
      .insert(safetyCodes)
      .values({
        phoneE164: e164,
        codeHash: send ? sha256(`${e164}:${code}`) : sha256(randomToken(32)),
        code: send ? code : null,
        expiresAt,
        attempts: 0,
      })
      .onConflictDoUpdate({
        target: safetyCodes.phoneE164,
        set: {
          codeHash: sql`case when ${send} then ${sha256(`${e164}:${code}`)} else ${safetyCodes.codeHash} end`,
          code: sql`case when ${send} then ${code} else ${safetyCodes.code} end`,
          expiresAt: sql`case when ${send} then ${expiresAt} else ${safetyCodes.expiresAt} end`,
          attempts: sql`case when ${send} and not ${live} then 0 else ${safetyCodes.attempts} end`,
          createdAt: sql`case when ${send} and not ${live} then now() else ${safetyCodes.createdAt} end`,
        },
      });
    const lang = languageOf(language);
    const text = (shown: string) =>
      translate(lang, 'Sms.safetyCode', { product: env().NEXT_PUBLIC_PRODUCT_NAME, code: shown });
    const redacted = JSON.stringify({ body: text('[code]'), html: null });
    const { rows } = await tx.execute<{ id: string }>(sql`insert into ${outboundMessages}
        (channel, recipient, locale, template, body, redacted)
      select 'sms', ${e164}, ${lang}, 'safety_code', ${text(code)}, ${redacted}::jsonb
      where ${send} returning id`);
    return rows[0]?.id ?? null;
  });
}

/**
 * Checks a one-time `code` for `e164`: every try first spends one of the code's SAFETY_CODE_TRIES in one conditional
 * UPDATE, so guesses from any number of clients at once get SAFETY_CODE_TRIES comparisons in all. A right code is
 * used up (deleted) and opens a session. Null for a wrong, used, ended or absent code, and always for a decoy row
 * (`code` null: nothing was sent, see `sendSafetyCode`).
 */
export async function verifySafetyCode(
  db: Db,
  e164: E164,
  code: string,
): Promise<{ token: string; expiresAt: Date } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(safetyCodes)
      .set({ attempts: sql`${safetyCodes.attempts} + 1` })
      .where(
        and(
          eq(safetyCodes.phoneE164, e164),
          isNotNull(safetyCodes.code),
          gt(safetyCodes.expiresAt, new Date()),
          lt(safetyCodes.attempts, SAFETY_CODE_TRIES),
        ),
      )
      .returning({ codeHash: safetyCodes.codeHash });
    if (!row) return null;
    const given = Buffer.from(sha256(`${e164}:${code}`));
    const stored = Buffer.from(row.codeHash);
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
    await tx.delete(safetyCodes).where(eq(safetyCodes.phoneE164, e164));
    return openSession(tx, e164, 'sms');
  });
}

/** A new request reference such as `SR-7K4M-2Q` (Crockford base32, like order references). */
function newReference(): string {
  let body = '';
  for (let i = 0; i < 6; i++) body += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return `SR-${body.slice(0, 4)}-${body.slice(4)}`;
}

/** Gives each of `ids` without a reference one (unique; a taken one is drawn again) and returns id → reference. */
async function referencesOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  const read = async () =>
    new Map(
      (
        await db
          .select()
          .from(requestReferences)
          .where(inArray(requestReferences.requestId, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']))
      ).map((r) => [r.requestId, r.reference]),
    );
  let found = await read();
  for (let round = 0; round < 4 && ids.some((id) => !found.has(id)); round++) {
    const missing = ids.filter((id) => !found.has(id));
    await db
      .insert(requestReferences)
      .values(missing.map((requestId) => ({ requestId, reference: newReference() })))
      .onConflictDoNothing();
    found = await read();
  }
  return found;
}

/**
 * Total sharing time from a request's consent records (oldest first) at `now`, ms: each share (`shared`,
 * `shared_again`) runs for the duration chosen, cut short by the next record (a stop, a report) and by `now`.
 */
export function sharedDuration(
  records: { decision: string; createdAt: Date; durationMinutes: number | null }[],
  now: Date,
): number {
  let total = 0;
  records.forEach((r, i) => {
    if (r.decision !== 'shared' && r.decision !== 'shared_again') return;
    const start = r.createdAt.getTime();
    const ends = [start + (r.durationMinutes ?? 0) * 60_000, now.getTime()];
    const nextRecord = records[i + 1];
    if (nextRecord) ends.push(nextRecord.createdAt.getTime());
    total += Math.max(0, Math.min(...ends) - start);
  });
  return total;
}

/**
 * Everything the safety centre of `e164` shows, newest request first: every request to that number (never another
 * number's), each with its reference, who asked (name and masked e-mail), when, the note, its state (lib/request-machine.ts,
 * brought up to the clock), how long it shared, the requester's map openings during a share, what is still visible to
 * the requester, the owner's deletion and block; and whether the number is on the opt-out list (`optedOut`, with
 * `undoable` false when an operator put it there).
 */
export async function safetyOverview(db: Db, e164: E164, now = new Date(), requesterId: string | null = null) {
  const scope = and(eq(locationRequests.targetE164, e164), onlyOf(requesterId));
  const open = await db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(and(scope, inArray(locationRequests.status, [...OPEN_STATES, ...LIVE_STATES])));
  for (const r of open) await settleByClock(db, r.id, now);
  const rows = await db
    .select({
      id: locationRequests.id,
      userId: locationRequests.userId,
      requesterName: locationRequests.requesterName,
      email: users.email,
      createdAt: locationRequests.createdAt,
      note: locationRequests.note,
      state: locationRequests.status,
      positions: sql<number>`(select count(*)::int from ${positions} p where p.request_id = ${locationRequests.id})`,
      erasedAt: requestErasures.erasedAt,
    })
    .from(locationRequests)
    .innerJoin(users, eq(users.id, locationRequests.userId))
    .leftJoin(requestErasures, eq(requestErasures.requestId, locationRequests.id))
    .where(scope)
    .orderBy(desc(locationRequests.createdAt), desc(locationRequests.id))
    .limit(200);
  const ids = rows.map((r) => r.id);
  const none = ['00000000-0000-0000-0000-000000000000'];
  const [refs, records, views, blocks, [optedOut]] = await Promise.all([
    referencesOf(db, ids),
    db
      .select()
      .from(consents)
      .where(inArray(consents.requestId, ids.length ? ids : none))
      .orderBy(asc(consents.createdAt), asc(consents.id)),
    db
      .select()
      .from(requestViews)
      .where(inArray(requestViews.requestId, ids.length ? ids : none))
      .orderBy(desc(requestViews.viewedAt)),
    db.select({ userId: requesterBlocks.userId }).from(requesterBlocks).where(eq(requesterBlocks.phoneE164, e164)),
    db.select().from(optOuts).where(eq(optOuts.phoneE164, e164)).limit(1),
  ]);
  const blocked = new Set(blocks.map((b) => b.userId));
  const requests: SafetyRequest[] = rows.map((r) => {
    const mine = views.filter((v) => v.requestId === r.id);
    return {
      id: r.id,
      reference: refs.get(r.id) ?? '',
      requesterName: r.requesterName,
      requester: maskEmail(r.email),
      createdAt: r.createdAt.toISOString(),
      note: r.note,
      state: r.state,
      sharedMs: sharedDuration(
        records.filter((c) => c.requestId === r.id),
        now,
      ),
      views: mine.slice(0, 50).map((v) => v.viewedAt.toISOString()),
      viewCount: mine.length,
      positions: r.positions,
      erasedAt: r.erasedAt?.toISOString() ?? null,
      blocked: blocked.has(r.userId),
    };
  });
  return {
    phone: e164,
    requests,
    optedOut: !!optedOut,
    undoable: !!optedOut && optedOut.reason !== 'operator',
    consentRetentionDays: env().CONSENT_RETENTION_DAYS,
  };
}

/** Writes one consent record per request in `ids` with `decision`, as the consent page does (services/consent.ts). */
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

/** Alerts the buyer of each of `ids` (services/buyer-alerts.ts) in `tx`; the outbox announces the alerts at commit. */
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

/** A `link` session's scope: the requests of `requesterId` only; no condition for the whole centre (null). */
function onlyOf(requesterId: string | null) {
  return requesterId ? eq(locationRequests.userId, requesterId) : undefined;
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
 * new links are refused before any SMS, services/sms-guards.ts `ownerRefusal`), and its requests to this number
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
 * Reports request `requestId` of `e164` as abuse, as the consent page's Report does (services/consent.ts
 * `answerConsent`): the number goes on the opt-out list, the report is recorded with the owner's optional `reason`
 * (already checked by the route), and the request takes the `reported` event; its buyer reads it as a decline or a
 * stop (services/buyer-alerts.ts `alertFor`). Returns the request's reference to quote, or null when the request is not
 * this number's.
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
 * Records that the buyer opened the map of request `requestId` during a share (the safety centre's view log): at most
 * one row a minute per request, one INSERT … WHERE NOT EXISTS on the request's index.
 */
export async function recordMapView(db: Db, requestId: string): Promise<void> {
  await db.execute(sql`insert into ${requestViews} (request_id)
    select ${requestId}::uuid where not exists (
      select 1 from ${requestViews} v where v.request_id = ${requestId}::uuid and v.viewed_at > now() - interval '1 minute')`);
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
