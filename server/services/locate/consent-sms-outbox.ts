import 'server-only';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { outboundMessages } from '../../db/schema';
import { DomainError } from '../../errors';
import type { E164 } from '../../../lib/contracts/phone';
import { REQUEST_COOLDOWN_DAYS, smsRefusal, type SmsRefusal } from './sms-guards';
import type { RequesterMarks, StoredMarks } from './requester-marks';

// The consent SMS on its way to the outbox (docs/rules.md "SMS", docs/decisions/0005-outbox-with-pg-boss.md): the SMS
// guards checked under one lock with the row they allow, the row written with its code masked for after the hand-over
// (or held for review, or written `failed` when refused), and a guard's refusal as the API error. Used by ./requests.ts.

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

/**
 * The SMS guards' refusal for `e164`, checked under an advisory lock held until `tx` commits, so the check and the SMS
 * row it allows are one step across every process: requests at once cannot pass a cap together.
 */
export async function lockedSmsRefusal(
  tx: Tx,
  e164: E164,
  marks: RequesterMarks | StoredMarks,
): Promise<SmsRefusal | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sms-queue'))`);
  return smsRefusal(tx, e164, marks);
}

/**
 * Writes the consent SMS of request `requestId` to the outbox: the full `body` to deliver, with `code` masked in the
 * rendering that replaces it once handed over. A refused SMS (`refusal`) is written `failed` with the
 * reason and only the masked text. Returns the row id.
 */
export async function queueConsentSms(
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
