import 'server-only';
import { eq, and, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests } from '../../db/schema';
import { env } from '../../env';
import { OPEN_STATES } from '../../../lib/request-machine';
import { applyEventWhere } from './request-transitions';
import { DomainError } from '../../errors';
import { DEFAULT_SMS_TEXT, consentLink, consentSmsText, localeForCountry, type SmsTextId } from './consent-sms';
import { e164Country } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';
import { ownerRefusal, reviewReason, type SmsRefusal } from './sms-guards';
import { payerKeyOf, recordMarks, storedMarks, type RequesterMarks } from './requester-marks';
import { randomToken, sha256 } from '../tokens';
import { MASKED_CODE, lockedSmsRefusal, queueConsentSms, refusalError } from './consent-sms-outbox';
import { buyerHasAccess, quotaOf } from './buyer-access';

// Creating location requests and what follows from the buyer's side (docs/rules.md "States", "SMS" and "Payments",
// docs/request-states.md): a request with its consent SMS (./consent-sms-outbox.ts: written to the outbox under the
// SMS guards' lock), a new consent link, a request within the subscription's quota (./buyer-access.ts: the quota and
// access, lib/subscription-access.ts), and the withdrawal of open requests when a subscription ends.

// Their names as this file exported them before they moved, for the folder's entry (./index.ts) and its callers.
export { HELD_UNTIL, MASKED_CODE, refusalError } from './consent-sms-outbox';
export { buyerHasAccess, buyerHasAccessSql, quotaOf } from './buyer-access';

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
