import 'server-only';
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { domainEvents, orders, refunds, subscriptions } from '../../db/schema';
import { env } from '../../env';
import { log } from '../../observability/log';
import { lockOrder, lockSubscription, lockSubscriptionsOf } from './billing-locks';
import { formatMoney } from '../money';
import { claimRefund, runRefundClaim, type ClaimFinisher } from './refund-claims';
import { queueEmail } from '../messaging';
import type { RefundCause } from '../../db/schema';
import { TRIAL_DECISION_LEAD_MS, trialDecisionDue } from './subscription-machine';
import { applySubscriptionEvent, locationSharedSince } from './subscriptions';

// Money back when nobody consented (docs/features.md "Payments and subscriptions"; the subscription machine's
// `trial_unconsented`, ./subscription-machine.ts): a trial in which no location was shared is refunded in full and
// ends before it would convert, in the three steps of ./refund-claims.ts.

/** The provider's idempotency key of the automatic refund of order `code`: a retry never refunds twice. */
export const autoRefundKey = (code: string) => `auto-refund-${code}`;

/**
 * Money back when nobody consented (docs/features.md "Payments and subscriptions"): every trial whose end is at most
 * TRIAL_DECISION_LEAD_MS (10 minutes) away, or past, and in which no location was shared since its order was paid
 * (`locationSharedSince`: the owner declined, never opened the link, or the SMS failed), is refunded in full and ends
 * instead of converting. Runs in the once-a-minute billing job, for sandbox and Stripe subscriptions alike: a Stripe
 * subscription is cancelled at Stripe before its `trial_end`, so Stripe never creates the first monthly invoice.
 * Off when REFUND_UNCONSENTED_TRIALS is false. One subscription's failure (a provider error) is logged and retried the
 * next minute without holding up the others; until it succeeds, the sandbox renewal leaves that trial unconverted.
 * Returns how many trials were refunded.
 */
export async function refundUnconsentedTrials(db: Db, now: Date = new Date()): Promise<number> {
  if (!env().REFUND_UNCONSENTED_TRIALS) return 0;
  const due = await db
    .select({ id: subscriptions.id, orderId: subscriptions.orderId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'trialing'),
        lte(subscriptions.currentPeriodEnd, new Date(now.getTime() + TRIAL_DECISION_LEAD_MS)),
      ),
    )
    .orderBy(asc(subscriptions.currentPeriodEnd))
    .limit(200);
  let refunded = 0;
  for (const sub of due) {
    try {
      if (await refundIfUnconsented(db, sub, now)) refunded++;
    } catch (err) {
      log().error({ err, subscriptionId: sub.id }, 'unconsented trial: refund failed, retried next minute');
    }
  }
  return refunded;
}

/**
 * Decides one trial, with no transaction open while the provider is asked (./refund-claims.ts,
 * docs/decisions/0009). In a short transaction the locks follow ./billing-locks.ts: the order row first (`FOR
 * NO KEY UPDATE`, as a buyer's refund and a withdrawal lock it), skipping one another transaction holds (retried the
 * next minute), then the subscription; both are read again under the locks, and an order already claimed or refunded
 * is left alone, so concurrent runs refund once. The refund is claimed with `autoRefundKey`; after the commit the
 * provider refunds with that key (Stripe: Idempotency-Key) and a Stripe subscription is cancelled at once; then
 * `finishUnconsentedRefund` records it. A provider error releases the claim and is thrown (logged by the caller, tried
 * again the next minute with the same key). Returns whether this run refunded it (false when nothing was due).
 */
async function refundIfUnconsented(db: Db, due: { id: string; orderId: string }, now: Date): Promise<boolean> {
  const claimed = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, eq(orders.id, due.orderId), { skipLocked: true });
    if (!order || order.status !== 'paid' || !order.paidAt || !order.userId) return null;
    const sub = await lockSubscription(tx, due.id);
    if (!sub || !trialDecisionDue(sub, now)) return null;
    if (await locationSharedSince(tx, order.userId, order.paidAt)) return null;
    const [existing] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.orderId, order.id));
    if (existing) return null;
    return claimRefund(tx, order, {
      cause: 'unconsented_trial',
      key: autoRefundKey(order.code),
      amountMinor: order.amountMinor,
      at: now.toISOString(),
      lang: order.locale,
      cancel: sub.provider !== 'sandbox' ? [sub.id] : [],
    });
  });
  if (!claimed) return false;
  return (await runRefundClaim(db, claimed, finishUnconsentedRefund)) !== null;
}

/**
 * Records the automatic refund of an unconsented trial once the provider has refunded (a `ClaimFinisher`,
 * ./refund-claims.ts): the machine's `trial_unconsented` for the order's trialing subscription (which ends the
 * open requests), an `order.refunded` domain event and the buyer's e-mail (`trial-refunded`, messages/*.json
 * `Email.trialRefunded*`; sent when the transaction commits, as every outbox row).
 */
export const finishUnconsentedRefund: ClaimFinisher<void> = async (tx, order, claim) => {
  const at = new Date(claim.at);
  for (const sub of await lockSubscriptionsOf(tx, order.id))
    await applySubscriptionEvent(tx, sub.id, { type: 'trial_unconsented', at });
  await tx.insert(domainEvents).values({
    type: 'order.refunded',
    aggregateId: order.id,
    payload: { reason: 'unconsented_trial' satisfies RefundCause, amountMinor: claim.amountMinor, at: claim.at },
  });
  await queueEmail(tx, {
    to: order.email,
    template: 'trial-refunded',
    locale: order.locale,
    params: {
      phone: order.phoneE164,
      order: order.reference,
      amount: formatMoney(claim.amountMinor, order.currency, order.locale),
    },
  });
};
