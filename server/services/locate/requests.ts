import 'server-only';
import { ACCESS_STATUSES, hasAccess } from '../../../lib/subscription-access';
import { and, count, desc, eq, gte, inArray, isNull, not, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, orders, outboundMessages, priceSetups, subscriptions } from '../../db/schema';
import { env } from '../../env';
import { FINAL_STATES, OPEN_STATES } from '../../../lib/request-machine';
import { applyEventWhere } from './request-transitions';
import { DomainError } from '../../errors';
import { DEFAULT_SMS_TEXT, consentLink, consentSmsText, localeForCountry, type SmsTextId } from './consent-sms';
import { e164Country } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';
import { REQUEST_COOLDOWN_DAYS, ownerRefusal, reviewReason, smsRefusal, type SmsRefusal } from './sms-guards';
import { payerKeyOf, recordMarks, storedMarks, type RequesterMarks, type StoredMarks } from './requester-marks';
import { randomToken, sha256 } from '../tokens';

// Creating location requests and what follows from the buyer's side (docs/rules.md "States", "SMS" and "Payments",
// docs/request-states.md): a request with its consent SMS written to the outbox under the SMS guards' lock, a new
// consent link, the quota of a subscription, access (lib/subscription-access.ts), and the withdrawal of open requests
// when a subscription ends.

/**
 * The SMS guards' refusal for `e164`, checked under an advisory lock held until `tx` commits, so the check and the SMS
 * row it allows are one step across every process: requests at once cannot pass a cap together.
 */
async function lockedSmsRefusal(tx: Tx, e164: E164, marks: RequesterMarks | StoredMarks): Promise<SmsRefusal | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-queue'))`);
  return smsRefusal(tx, e164, marks);
}

/**
 * Writes the consent SMS of request `requestId` to the outbox: the full `body` to deliver, with `code` masked in the
 * rendering that replaces it once handed over. A refused SMS (`refusal`) is written `failed` with the
 * reason and only the masked text. Returns the row id.
 */
async function queueConsentSms(
  tx: Tx,
  sms: {
    requestId: string;
    to: string;
    locale: string;
    body: string;
    code: string;
    refusal?: SmsRefusal | null;
    held?: string | null;
  },
): Promise<string> {
  const masked = sms.body.replace(sms.code, MASKED_CODE);
  // Held for review: queued with its reason and no time to go, so only an operator's retry (the console's message
  // desk, services/ops/messages.ts) sends it; queued rows keep their text until handed over.
  const hold = sms.held ? { lastError: `held for review: ${sms.held}`, nextAttemptAt: HELD_UNTIL } : {};
  const [row] = await tx
    .insert(outboundMessages)
    .values({
      channel: 'sms',
      recipient: sms.to,
      locale: sms.locale,
      locationRequestId: sms.requestId,
      ...(sms.refusal
        ? { body: masked, status: 'failed' as const, lastError: `refused: ${sms.refusal}`, redactedAt: new Date() }
        : { body: sms.body, redacted: { body: masked, html: null }, ...hold }),
    })
    .returning({ id: outboundMessages.id });
  return row.id;
}

/**
 * Creates a location request for `e164` inside `tx` (docs/rules.md#data: `queued`): a consent code of 128 random bits
 * (stored as SHA-256), the SMS in the target's language (guessed from the number's country unless `locale` is given)
 * with the buyer's chosen text, and the SMS as an outbox row.
 *
 * A buyer whose requests most owners refused, or who asks many numbers in a day (`reviewReason`), has the SMS held for
 * an operator's review: written queued with the reason and no time to go (HELD_UNTIL), released by the console's retry.
 *
 * The SMS guards (opt-out, number type, country, daily caps) are checked here, where the SMS is queued, under one
 * advisory lock held until the transaction commits, so requests at once cannot pass a cap together. A
 * refusal throws the guard's DomainError when `onRefusal` is `throw` (a new request: nothing is written); with `record`
 * (a paid order, whose payment cannot be undone here) the request is created and its SMS row is written `failed`
 * with the reason, so the buyer is shown "SMS not sent" and can share the link themselves.
 *
 * The request keeps the SMS text with the code masked; the outbox row keeps the full text only until it is handed
 * over (`redacted`). Returns the request id, the outbox row id (null when refused) and the consent link
 * (shown once to the buyer to copy; only its hash is kept).
 */
export async function createLocationRequest(
  tx: Tx,
  input: {
    userId: string;
    e164: E164;
    /** Who asks, named in the SMS and on the consent page; null for orders made before it was asked. */
    requesterName: string | null;
    /** The optional note to the owner, shown on the consent page only, never put in the SMS. */
    note?: string | null;
    orderId?: string;
    locale?: string;
    text?: SmsTextId;
    onRefusal?: 'throw' | 'record';
    /**
     * Who asks beyond the account (services/locate/requester-marks.ts): the card, the browser and the address the
     * request was made with. Recorded with the request; the owner's block, cool-down and the review signals follow
     * them.
     */
    marks?: Omit<RequesterMarks, 'account' | 'name'>;
  },
): Promise<{ requestId: string; link: string; refusal: SmsRefusal | null }> {
  const e = env();
  const marks: RequesterMarks = { ...input.marks, account: input.userId, name: input.requesterName };
  const refusal = await lockedSmsRefusal(tx, input.e164, marks);
  if (refusal && input.onRefusal !== 'record') throw refusalError(refusal);
  const held = refusal ? null : await reviewReason(tx, marks, input.e164);
  const consentCode = randomToken(16);
  const locale = input.locale ?? localeForCountry(e164Country(input.e164));
  const link = consentLink(e.APP_ORIGIN, locale, consentCode);
  const smsText = consentSmsText(locale, e.NEXT_PUBLIC_PRODUCT_NAME, link, input.text, input.requesterName);
  const [request] = await tx
    .insert(locationRequests)
    .values({
      userId: input.userId,
      orderId: input.orderId,
      targetE164: input.e164,
      requesterName: input.requesterName,
      note: input.note ?? null,
      locale,
      consentCodeHash: sha256(consentCode),
      smsText: smsText.replace(consentCode, MASKED_CODE),
      expiresAt: new Date(Date.now() + e.CONSENT_LINK_TTL_HOURS * 3600_000),
    })
    .returning({ id: locationRequests.id });
  await recordMarks(tx, request.id, marks);
  await queueConsentSms(tx, {
    requestId: request.id,
    to: input.e164,
    locale,
    body: smsText,
    code: consentCode,
    refusal,
    held,
  });
  return { requestId: request.id, link, refusal };
}

/**
 * A new consent link for one of `userId`'s requests that has not been answered yet: when its SMS
 * was refused or not delivered, the buyer copies the link to send it themselves, or (`send`) has the SMS sent again,
 * under the same guards as a new request. The code is replaced (only its hash is stored), so the previous link stops
 * working. The SMS sent again is in the default text (DEFAULT_SMS_TEXT: a text since withdrawn is never sent again),
 * and the request keeps it, code masked. Returns the link (shown once) and whether an SMS was queued (the outbox
 * announces it at commit); null when the request is not the caller's.
 * Errors: 409 `Api.linkUnavailable` once the request was answered, expired or withdrawn; the SMS guards' errors.
 */
export async function renewConsentLink(
  db: Db,
  userId: string,
  id: string,
  send: boolean,
): Promise<{ link: string; smsQueued: boolean } | null> {
  const e = env();
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(locationRequests)
      .where(and(eq(locationRequests.id, id), eq(locationRequests.userId, userId)))
      .for('update');
    if (!request) return null;
    const unanswered = (OPEN_STATES as readonly string[]).includes(request.status);
    if (!unanswered || request.expiresAt.getTime() < Date.now() || !(await buyerHasAccess(tx, userId))) {
      throw new DomainError('conflict', 'Api.linkUnavailable');
    }
    // A link the buyer copies reaches the owner too: the owner's block and cool-down refuse it before any SMS.
    const marks = { account: userId, rows: await storedMarks(tx, id) };
    const refusal = send
      ? await lockedSmsRefusal(tx, request.targetE164, marks)
      : await ownerRefusal(tx, request.targetE164, marks);
    if (refusal) throw refusalError(refusal);
    const consentCode = randomToken(16);
    const link = consentLink(e.APP_ORIGIN, request.locale, consentCode);
    // The SMS sent again is written anew in the default text, the one offered now: a stored text may be one since
    // withdrawn (lib/contracts/locations.ts REMOVED_SMS_TEXTS: "one of your contacts") or from before codes were
    // masked. The request keeps the text sent last, code masked.
    const body = consentSmsText(
      request.locale,
      e.NEXT_PUBLIC_PRODUCT_NAME,
      link,
      DEFAULT_SMS_TEXT,
      request.requesterName,
    );
    await tx
      .update(locationRequests)
      .set({
        consentCodeHash: sha256(consentCode),
        ...(send ? { smsText: body.replace(consentCode, MASKED_CODE) } : {}),
      })
      .where(eq(locationRequests.id, id));
    if (!send) return { link, smsQueued: false };
    await queueConsentSms(tx, {
      requestId: id,
      to: request.targetE164,
      locale: request.locale,
      body,
      code: consentCode,
    });
    return { link, smsQueued: true };
  });
}

/** The next attempt of a consent SMS held for review: none (only an operator's retry, which clears it, sends it). */
export const HELD_UNTIL = new Date('9999-12-31T00:00:00Z');

/** What stands for the consent code in stored SMS texts. */
export const MASKED_CODE = '[code]';

/**
 * The refusal of an SMS guard as an API error: 403 for a number or country that may not be asked (a requester the
 * owner blocked gets the opted-out answer; the cool-down after a decline says so, `Api.coolingDown`), 422 for a
 * number that cannot receive SMS (premium rate, satellite, landline…), 429 for caps.
 */
export function refusalError(refusal: SmsRefusal): DomainError {
  // A blocked requester reads what an opted-out number answers: nothing tells them the owner singled them out.
  if (refusal === 'opted_out' || refusal === 'blocked') return new DomainError('forbidden', 'Api.optedOut');
  if (refusal === 'cooling_down') {
    return new DomainError('forbidden', 'Api.coolingDown', { days: REQUEST_COOLDOWN_DAYS }, { reason: refusal });
  }
  if (refusal === 'not_mobile') {
    return new DomainError('invalid', 'Api.notMobile', {}, { field: 'phone', reason: refusal });
  }
  if (refusal === 'country_not_allowed') return new DomainError('forbidden', 'Api.countryNotAllowed');
  return new DomainError('limited', 'Api.smsLimit', {}, { reason: refusal });
}

/** The subscriber's newest trialing or active subscription with its quota, or null when none gives access now. */
async function liveSubscription(db: Db | Tx, userId: string) {
  const [sub] = await db
    .select({ sub: subscriptions, quota: priceSetups.geolocationsPerPeriod })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...ACCESS_STATUSES])))
    .orderBy(desc(subscriptions.currentPeriodEnd))
    .limit(1);
  return sub && hasAccess(sub.sub, new Date()) ? sub : null;
}

/**
 * Whether `userId` may locate now (lib/subscription-access.ts `hasAccess`): checked where a consent is recorded and where
 * each position is stored, so no position reaches a buyer without access.
 */
export async function buyerHasAccess(db: Db | Tx, userId: string): Promise<boolean> {
  return (await liveSubscription(db, userId)) !== null;
}

/**
 * `buyerHasAccess` as an SQL condition on the buyer id `userId` (a column or a value) at `now`, for a statement that
 * checks access where it writes (services/locate/owner-signals.ts `savePosition`): true when one of the buyer's
 * subscriptions is in ACCESS_STATUSES and its period ends after `now`.
 */
export function buyerHasAccessSql(userId: SQLWrapper, now: Date): SQL {
  return sql`exists (select 1 from ${subscriptions} where ${subscriptions.userId} = ${userId}
    and ${inArray(subscriptions.status, [...ACCESS_STATUSES])} and ${subscriptions.currentPeriodEnd} > ${now})`;
}

/**
 * Ends the open requests of `userId` when their subscription has ended (refund, cancellation at period end, failed
 * renewals) and no other subscription gives access: the `withdrawn` event of lib/request-machine.ts, with
 * `withdrawnAt`, so the owner's page says the request was withdrawn and the link accepts no share. Returns how many requests were ended.
 */
export async function withdrawRequests(tx: Tx, userId: string): Promise<number> {
  if (await buyerHasAccess(tx, userId)) return 0;
  const ended = await applyEventWhere(tx, 'withdrawn', eq(locationRequests.userId, userId), {
    withdrawnAt: new Date(),
    sharingUntil: null,
  });
  return ended.length;
}

/**
 * The subscriber's live subscription and how much of its quota is used. A request counts unless it was declined or
 * expired without ever sharing (its credit comes back). The period starts at the subscription's start or 30 days
 * before its current period end, whichever is later. Null without access (lib/subscription-access.ts `hasAccess`:
 * trialing or active and inside the period; `past_due` suspends access).
 */
export async function quotaOf(db: Db | Tx, userId: string) {
  const sub = await liveSubscription(db, userId);
  if (!sub) return null;
  const periodStart = new Date(
    Math.max(sub.sub.createdAt.getTime(), sub.sub.currentPeriodEnd.getTime() - 30 * 24 * 3600_000),
  );
  const [{ used }] = await db
    .select({ used: count() })
    .from(locationRequests)
    .where(
      and(
        eq(locationRequests.userId, userId),
        gte(locationRequests.createdAt, periodStart),
        not(and(inArray(locationRequests.status, [...FINAL_STATES]), isNull(locationRequests.firstSharedAt))!),
      ),
    );
  return { used, quota: sub.quota, periodEnd: sub.sub.currentPeriodEnd };
}

/**
 * A subscriber asks to locate a number (docs/rules.md#api `POST /spyContent/phoneLocation`): needs a trialing or active
 * subscription ('Please re-purchase after the account has expired', 403), a quota credit (403), and the SMS guards
 * (403/429, checked before anything is written or sent). Returns the request id and its consent link.
 */
export async function requestLocation(
  db: Db,
  userId: string,
  input: {
    /** The number to locate, parsed where it came in (server/api/phone.ts `e164Of`). */
    e164: E164;
    requesterName: string;
    note?: string | null;
    text?: SmsTextId;
    locale?: string;
    /** The caller's browser key and address (services/locate/requester-marks.ts); the card is the subscription's. */
    marks?: { device?: string | null; address?: string | null };
  },
): Promise<{ requestId: string; link: string }> {
  const e164 = input.e164;
  return db.transaction(async (tx) => {
    // One request at a time per buyer, so two concurrent calls cannot both take the last credit.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
    const quota = await quotaOf(tx, userId);
    if (!quota) throw new DomainError('forbidden', 'Api.expiredSubscription');
    if (quota.used >= quota.quota) throw new DomainError('forbidden', 'Api.quotaUsed', { quota: quota.quota });
    const created = await createLocationRequest(tx, {
      userId,
      e164,
      requesterName: input.requesterName,
      note: input.note ?? null,
      text: input.text,
      locale: input.locale,
      marks: { ...input.marks, payer: await payerKeyOf(tx, userId) },
    });
    return { requestId: created.requestId, link: created.link };
  });
}
