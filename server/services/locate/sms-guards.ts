import 'server-only';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, optOuts, outboundMessages } from '../../db/schema';
import { env } from '../../env';
import { e164Country, phoneNumberOf } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';
import { ownerRefusalOf, requesterSignals, type RequesterMarks, type StoredMarks } from './requester-marks';

// Whether a consent SMS may go to a number (docs/rules.md "SMS", "Consent" and "Limits"): the opt-out list, the country
// allowlist, the per-number, global and per-buyer daily caps, the cool-down after the owner declined, the owner's
// refusals of this requester (./requester-marks.ts), and the operator's review of a requester many owners refuse or
// who tries many numbers (signals of unwanted tracking, IETF DULT threat model).

/** Why a consent SMS may not be sent (docs/rules.md#security); each maps to 403 or 429 without a provider call. */
export type SmsRefusal =
  | 'opted_out'
  | 'blocked'
  | 'cooling_down'
  | 'not_mobile'
  | 'country_not_allowed'
  | 'target_daily'
  | 'buyer_daily'
  | 'global_daily';

/**
 * Days after the owner of a number declined a request during which the same buyer cannot ask that number again (the
 * UK operators' code of practice for location services: the located phone stays in control; a refusal is not to be
 * worn down by asking again).
 */
export const REQUEST_COOLDOWN_DAYS = 30;

/**
 * Whether `e164` can receive our SMS: libphonenumber's type is mobile or fixed-line-or-mobile, and the number belongs
 * to a country (satellite and other international networks such as +881, +882 and +870 do not). Premium-rate,
 * shared-cost, toll-free, VoIP, pager and unknown numbers are refused (toll fraud).
 */
export function canReceiveSms(e164: E164): boolean {
  const number = phoneNumberOf(e164);
  const type = number.getType();
  return !!number.country && (type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE');
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * What the owner of `e164` decided about this requester in the safety centre or on a consent page: `blocked` when they
 * blocked the requester of an earlier request to this number by the same person, `cooling_down` when they declined
 * one less than REQUEST_COOLDOWN_DAYS ago; null otherwise. The same person is the same account or any shared mark
 * (card, browser, address, requester name: services/locate/requester-marks.ts), so a new e-mail does not shed a
 * refusal.
 */
export async function ownerRefusal(
  db: Db | Tx,
  e164: E164,
  marks: RequesterMarks | StoredMarks,
): Promise<'blocked' | 'cooling_down' | null> {
  return ownerRefusalOf(db, e164, marks, REQUEST_COOLDOWN_DAYS);
}

/**
 * Checks the abuse guards for a consent SMS to `e164` (settings SMS_*): the opt-out list (skipped with
 * `ignoreOptOut`, for the one-time code the owner asks for themselves), the owner's block of the requester and the
 * cool-down after a decline (`ownerRefusal`, when `marks` are given: the requester's account and marks), the number type
 * (`canReceiveSms`), the country allowlist, the per-target (the safety centre's codes not counted) and global daily caps, and, when `marks.account` is given, the
 * per-buyer daily cap. Counts the SMS written in the last 24 hours. Returns the first refusal, or null when the SMS
 * may go.
 */
export async function smsRefusal(
  db: Db | Tx,
  e164: E164,
  marks?: RequesterMarks | StoredMarks,
  options: { ignoreOptOut?: boolean } = {},
): Promise<SmsRefusal | null> {
  const e = env();
  const buyerId = marks?.account ?? null;
  if (!options.ignoreOptOut) {
    const [optedOut] = await db.select().from(optOuts).where(eq(optOuts.phoneE164, e164)).limit(1);
    if (optedOut) return 'opted_out';
  }
  if (marks) {
    const owner = await ownerRefusal(db, e164, marks);
    if (owner) return owner;
  }
  if (!canReceiveSms(e164)) return 'not_mobile';
  const country = e164Country(e164);
  if (e.SMS_COUNTRY_ALLOWLIST.length && (!country || !e.SMS_COUNTRY_ALLOWLIST.includes(country))) {
    return 'country_not_allowed';
  }
  const since = new Date(Date.now() - DAY_MS);
  const recent = and(eq(outboundMessages.channel, 'sms'), gt(outboundMessages.createdAt, since));
  const [[toTarget], [all]] = await Promise.all([
    db
      .select({ n: count() })
      .from(outboundMessages)
      // The safety centre's codes are the owner's own, with their own ceiling (services/rate-limit.ts
      // `safetyCodesPerNumber`): a stranger asking codes must not use up the number's consent SMS, nor the other way.
      .where(
        and(
          recent,
          eq(outboundMessages.recipient, e164),
          sql`${outboundMessages.template} is distinct from 'safety_code'`,
        ),
      ),
    db.select({ n: count() }).from(outboundMessages).where(recent),
  ]);
  if (toTarget.n >= e.SMS_MAX_PER_TARGET_PER_DAY) return 'target_daily';
  if (all.n >= e.SMS_GLOBAL_DAILY_CAP) return 'global_daily';
  if (buyerId) {
    const [byBuyer] = await db
      .select({ n: count() })
      .from(outboundMessages)
      .innerJoin(locationRequests, eq(locationRequests.id, outboundMessages.locationRequestId))
      .where(and(recent, eq(locationRequests.userId, buyerId)));
    if (byBuyer.n >= e.SMS_MAX_PER_BUYER_PER_DAY) return 'buyer_daily';
  }
  return null;
}

/** Refused answers (declines and reports) among a buyer's answered requests of the last 30 days that hold their SMS. */
export const REVIEW_REFUSED_MIN = 3;
/** Different numbers a buyer asks in 24 hours from which their further consent SMS wait for review. */
export const REVIEW_NUMBERS_PER_DAY = 5;

/**
 * Why a new consent SMS of this requester to `e164` is held for an operator's review in the console instead of being
 * sent (signals of unwanted tracking, IETF DULT threat model: a requester many owners refuse, or one who tries many
 * numbers): `mostly_refused` when at least REVIEW_REFUSED_MIN of their requests answered in the last 30 days were
 * declined or reported and those are more than half of the answered ones; `many_numbers` when this SMS would make
 * REVIEW_NUMBERS_PER_DAY different numbers asked in 24 hours. Null when nothing stands out. "Their requests" are those
 * of the account or of the same card or browser under any e-mail, and answers the requester gave from their own
 * session, browser or address never count (services/locate/requester-marks.ts `requesterSignals`).
 */
export async function reviewReason(
  db: Db | Tx,
  marks: RequesterMarks,
  e164: E164,
): Promise<'mostly_refused' | 'many_numbers' | null> {
  const signals = await requesterSignals(db, marks, e164, 30, 24);
  if (signals.refused >= REVIEW_REFUSED_MIN && signals.refused * 2 > signals.answered) return 'mostly_refused';
  return signals.numbers + 1 >= REVIEW_NUMBERS_PER_DAY ? 'many_numbers' : null;
}
