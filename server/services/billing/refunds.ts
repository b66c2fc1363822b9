import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { domainEvents, orders, refunds, withdrawals, type Order, type RefundCause } from '../../db/schema';
import { env } from '../../env';
import { DomainError, notFound } from '../../errors';
import { formatMoney } from '../money';
import { assertUnclaimed, claimRefund, settleRefund, type ClaimFinisher, type Refund } from './refund-claims';
import { emailDateTime, queueEmail } from '../messaging';
import { lockOrder, lockSubscriptionsOf } from './billing-locks';
import { applySubscriptionEvent, locationSharedSince } from './subscriptions';
import { quoteOfOrder, subscriptionOfOrder } from './contract-quote';
import type { WithdrawalQuote } from './withdrawal-rule';
import { pickLanguage, translate } from '../../i18n';

// A buyer's refund and an operator's (docs/rules.md "Payments" and "Limits"; the terms of use: 14 days, one refund per
// order, none once the service was performed): whether an order can be refunded and, when it cannot, what a
// withdrawal from the contract would still give back; the refund itself in the three steps of ./refund-claims.ts.

export type RefundReason =
  'eligible' | 'already_refunded' | 'not_paid' | 'window_passed' | 'service_performed' | 'withdrawn';

/**
 * Whether `order` can be refunded at `now` (docs/rules.md#limits, terms of use): asked within REFUND_WINDOW_DAYS (14) of the
 * transaction, the contract not withdrawn from (a withdrawal made its own refund, ./withdrawals.ts), and the
 * service was not performed — no location was shared with the buyer since the payment (./subscriptions.ts
 * `locationSharedSince`, the same test the withdrawal rule uses). One refund per order. Returns the reason, the amount
 * (minor units), the last moment to ask and, when refused because the service was performed, what a withdrawal from
 * the contract would do now (`withdrawal`: ./contract-quote.ts, the quote the withdrawal itself uses; null
 * otherwise), so the refusal names it and never disagrees with it.
 */
export async function refundCheck(db: Db | Tx, order: Order, now: Date) {
  const deadline = order.paidAt ? new Date(order.paidAt.getTime() + env().REFUND_WINDOW_DAYS * 86_400_000) : null;
  let reason: RefundReason = 'eligible';
  let withdrawal: WithdrawalQuote | null = null;
  // A refund under way (./refund-claims.ts) reads as done: it is recorded in a moment, or released and asked again.
  if (order.status === 'refunded' || order.status === 'refunding') reason = 'already_refunded';
  else if (order.status !== 'paid' || !order.paidAt || !deadline) reason = 'not_paid';
  else if ((await db.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.orderId, order.id))).length)
    reason = 'withdrawn';
  else if (now > deadline) reason = 'window_passed';
  else if (await locationSharedSince(db, order.userId!, order.paidAt)) {
    reason = 'service_performed';
    withdrawal = await quoteOfOrder(db, order, await subscriptionOfOrder(db, order.id), now);
  }
  return { reason, amountMinor: order.amountMinor, currency: order.currency, deadline, withdrawal };
}

/** What `refundCheck` answers. */
export type RefundCheck = Awaited<ReturnType<typeof refundCheck>>;

/**
 * The message of a refused refund (messages/*.json `Api.refund*`) as a catalogue key and its values, money and dates
 * written in `lang`. A refusal because the service was performed says what the buyer can still do, from the same
 * quote the withdrawal uses (`check.withdrawal`): withdraw from the contract until its deadline (Directive 2011/83/EU
 * Art. 9) and get back the quoted amount — everything paid (`full`), the unused part of the current period
 * (`pro_rata`, Art. 14(3)), or nothing when that part is used up; past the withdrawal period, only the refusal.
 * Null for `eligible`.
 */
export function refusalOf(
  lang: string,
  check: RefundCheck,
): { key: string; values: Record<string, string | number> } | null {
  const money = (minor: number) => formatMoney(minor, check.currency, lang);
  switch (check.reason) {
    case 'eligible':
      return null;
    case 'already_refunded':
      return { key: 'PayStatus.refundedTitle', values: {} };
    case 'not_paid':
      return { key: 'Api.refundNotPaid', values: {} };
    case 'window_passed':
      return { key: 'Api.refundWindowPassed', values: { days: env().REFUND_WINDOW_DAYS } };
    case 'withdrawn':
      return { key: 'Api.refundWithdrawn', values: {} };
    case 'service_performed': {
      const q = check.withdrawal;
      if (!q?.withinPeriod) return { key: 'Api.refundServicePerformed', values: {} };
      const date = emailDateTime(q.deadline, lang);
      if (q.refundMinor === 0)
        return { key: 'Api.refundServicePerformedWithdrawNone', values: { date, paid: money(q.paidMinor) } };
      return {
        key: 'Api.refundServicePerformedWithdraw',
        values: { date, rule: q.rule, refund: money(q.refundMinor), paid: money(q.paidMinor) },
      };
    }
  }
}

/** `refusalOf` written in `lang` (the answer of `POST /admin/order/refundDetail`); empty for `eligible`. */
export function refusalMessage(lang: string, check: RefundCheck): string {
  const refusal = refusalOf(lang, check);
  return refusal ? translate(pickLanguage(lang), refusal.key, refusal.values) : '';
}

/** What a refund answers: the `refunds` row and whether it repeats an earlier one. */
export type RefundResult = { refund: Refund; repeated: boolean };

/**
 * Refunds order `code` of `userId` (docs/rules.md#api `POST /admin/order/refund`): refused with 409 unless `refundCheck` allows
 * it — the localized message says why (`refusalMessage`: after a share, what a withdrawal would still give back),
 * `detail.reason` names it (`not_paid`, `window_passed`, `service_performed`, `withdrawn`);
 * a second refund of the same order is a no-op answering the first. The provider is called
 * with the key `refund-<order code>`, so a retry never refunds twice, and with no transaction open
 * (./refund-claims.ts: claimed under the order's lock, the provider asked, recorded under the lock again; a
 * refund or withdrawal of the same order in progress is waited for). The order becomes `refunded`, its subscriptions
 * end at once (at the provider too), and the buyer gets an e-mail, money written in `lang`. Foreign or unknown
 * orders: 404. A provider error is thrown, the order left `paid`.
 */
export async function refundOrder(db: Db, userId: string, code: string, lang: string, now = new Date()) {
  return settleRefund<RefundResult>(
    db,
    async (tx) => {
      // The lock order of ./billing-locks.ts: the order, then its subscriptions.
      const order = await lockOrder(tx, and(eq(orders.code, code), eq(orders.userId, userId)));
      if (!order) throw notFound();
      const [existing] = await tx.select().from(refunds).where(eq(refunds.orderId, order.id));
      if (existing) return { done: { refund: existing, repeated: true } };
      assertUnclaimed(order);
      // In the transaction (not another pooled connection): the order's lock holder never waits for the pool.
      const check = await refundCheck(tx, order, now);
      if (check.reason !== 'eligible' && check.reason !== 'already_refunded') {
        const refusal = refusalOf(lang, check)!;
        throw new DomainError('conflict', refusal.key, refusal.values, { reason: check.reason });
      }
      const live = (await lockSubscriptionsOf(tx, order.id)).filter((sub) => sub.status !== 'canceled');
      const claimed = await claimRefund(tx, order, {
        cause: 'requested',
        key: `refund-${order.code}`,
        amountMinor: order.amountMinor,
        at: now.toISOString(),
        lang,
        cancel: live.map((sub) => sub.id),
      });
      return { claimed };
    },
    finishRequestedRefund,
  );
}

/**
 * Records a buyer's (or an operator's) refund once the provider has refunded (a `ClaimFinisher`,
 * ./refund-claims.ts): every subscription of the order ends (`refunded`) and the buyer is e-mailed
 * (`refund-issued`, sent when the transaction commits). Returns the refund and `repeated: false`.
 */
export const finishRequestedRefund: ClaimFinisher<RefundResult> = async (tx, order, claim, refund) => {
  const at = new Date(claim.at);
  for (const sub of await lockSubscriptionsOf(tx, order.id))
    await applySubscriptionEvent(tx, sub.id, { type: 'refunded', at });
  await queueEmail(tx, {
    to: order.email,
    template: 'refund-issued',
    locale: order.locale,
    params: {
      amount: formatMoney(claim.amountMinor, order.currency, claim.lang),
      order: order.reference,
      method: order.paymentMethod,
    },
  });
  return { refund: refund!, repeated: false };
};

export type { RefundCause };

/**
 * Why each of `orderIds` (refunded orders) was refunded: `withdrawal` when a withdrawal from the contract is recorded
 * for it (./withdrawals.ts), `unconsented_trial` when the automatic refund of a trial in which nothing was
 * shared made it (its `order.refunded` domain event, ./unconsented-trials.ts), else `requested` (the buyer's
 * refund, or an operator's on their behalf). Returns a map by order id.
 */
export async function refundCauses(db: Db | Tx, orderIds: string[]): Promise<Map<string, RefundCause>> {
  const causes = new Map<string, RefundCause>(orderIds.map((id) => [id, 'requested']));
  if (!orderIds.length) return causes;
  const [auto, withdrawn] = await Promise.all([
    db
      .select({ orderId: domainEvents.aggregateId })
      .from(domainEvents)
      .where(
        and(
          eq(domainEvents.type, 'order.refunded'),
          inArray(domainEvents.aggregateId, orderIds),
          sql`${domainEvents.payload}->>'reason' = 'unconsented_trial'`,
        ),
      ),
    db.select({ orderId: withdrawals.orderId }).from(withdrawals).where(inArray(withdrawals.orderId, orderIds)),
  ]);
  for (const { orderId } of auto) causes.set(orderId, 'unconsented_trial');
  for (const { orderId } of withdrawn) causes.set(orderId, 'withdrawal');
  return causes;
}
