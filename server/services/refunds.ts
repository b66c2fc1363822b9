import 'server-only';
import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { domainEvents, locationRequests, orders, refunds, withdrawals, type Order } from '../db/schema';
import { env } from '../env';
import { ApiError, ErrorCode, notFound } from '../errors';
import { paymentProvider } from '../providers/payments';
import { formatMoney } from './money';
import { queueEmail } from './outbox-queue';
import { lockOrder, lockSubscriptionsOf } from './billing-locks';
import { applySubscriptionEvent } from './subscriptions';

export type RefundReason = 'eligible' | 'already_refunded' | 'not_paid' | 'window_passed' | 'service_performed';

/**
 * Whether `order` can be refunded at `now` (docs/rules.md#limits, terms of use): asked within REFUND_WINDOW_DAYS (14) of the
 * transaction, and the service was not performed — no location was shared in any request the buyer made since.
 * One refund per order. Returns the reason, the amount (minor units) and the last moment to ask.
 */
export async function refundCheck(db: Db | Tx, order: Order, now: Date) {
  const deadline = order.paidAt ? new Date(order.paidAt.getTime() + env().REFUND_WINDOW_DAYS * 86_400_000) : null;
  let reason: RefundReason = 'eligible';
  if (order.status === 'refunded') reason = 'already_refunded';
  else if (order.status !== 'paid' || !order.paidAt || !deadline) reason = 'not_paid';
  else if (now > deadline) reason = 'window_passed';
  else {
    const [shared] = await db
      .select({ id: locationRequests.id })
      .from(locationRequests)
      .where(
        and(
          eq(locationRequests.userId, order.userId!),
          isNotNull(locationRequests.firstSharedAt),
          gte(locationRequests.firstSharedAt, order.paidAt),
        ),
      )
      .limit(1);
    if (shared) reason = 'service_performed';
  }
  return { reason, amountMinor: order.amountMinor, currency: order.currency, deadline };
}

/** The message of each refusal reason (messages/*.json `Api`). */
export const REFUSAL: Record<Exclude<RefundReason, 'eligible' | 'already_refunded'>, string> = {
  not_paid: 'Api.refundNotPaid',
  window_passed: 'Api.refundWindowPassed',
  service_performed: 'Api.refundServicePerformed',
};

/**
 * Sends a refund of `amountMinor` (minor units, > 0) of `order` to its provider with `idempotencyKey` (Stripe:
 * Idempotency-Key; a retry never refunds twice) and records it: the `refunds` row (one per order — a second one raises
 * the unique violation) and the order `refunded` at `now`. Runs inside the caller's transaction, which must hold the
 * order's row lock (services/billing-locks.ts). For refunds decided by another rule than `refundCheck` (a withdrawal from the contract,
 * services/withdrawals.ts). Returns the `refunds` row.
 */
export async function recordRefund(tx: Tx, order: Order, amountMinor: number, idempotencyKey: string, now: Date) {
  const providerRef = await paymentProvider(order.provider).refund(order, amountMinor, idempotencyKey);
  const [refund] = await tx
    .insert(refunds)
    .values({ orderId: order.id, amountMinor, currency: order.currency, providerRef })
    .returning();
  await tx.update(orders).set({ status: 'refunded', refundedAt: now }).where(eq(orders.id, order.id));
  return refund;
}

/**
 * Refunds order `code` of `userId` (docs/rules.md#api `POST /admin/order/refund`): refused with 409 unless `refundCheck` allows
 * it — the localized message says why, `detail.reason` names it (`not_paid`, `window_passed`, `service_performed`);
 * a second refund of the same order is a no-op answering the first. The provider is called
 * with the key `refund-<order code>`, so a retry never refunds twice. The order becomes `refunded`, its subscription
 * ends at once, and the buyer gets an e-mail. Foreign or unknown orders: 404.
 */
export async function refundOrder(db: Db, userId: string, code: string, lang: string, now = new Date()) {
  return db.transaction(async (tx) => {
    // The lock order of services/billing-locks.ts: the order, then its subscriptions, then what ending them touches.
    const order = await lockOrder(tx, and(eq(orders.code, code), eq(orders.userId, userId)));
    if (!order) throw notFound();
    const [existing] = await tx.select().from(refunds).where(eq(refunds.orderId, order.id));
    if (existing) return { refund: existing, repeated: true, outboxIds: [] as string[] };
    // In the transaction (not another pooled connection): the order's lock holder never waits for the pool.
    const check = await refundCheck(tx, order, now);
    if (check.reason !== 'eligible' && check.reason !== 'already_refunded') {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        REFUSAL[check.reason],
        { days: env().REFUND_WINDOW_DAYS },
        { reason: check.reason },
      );
    }
    const providerRef = await paymentProvider(order.provider).refund(order, order.amountMinor, `refund-${order.code}`);
    const [refund] = await tx
      .insert(refunds)
      .values({ orderId: order.id, amountMinor: order.amountMinor, currency: order.currency, providerRef })
      .returning();
    await tx.update(orders).set({ status: 'refunded', refundedAt: now }).where(eq(orders.id, order.id));
    const subs = await lockSubscriptionsOf(tx, order.id);
    for (const sub of subs) {
      if (sub.status !== 'canceled') await paymentProvider(sub.provider).cancelNow(sub);
      await applySubscriptionEvent(tx, sub.id, { type: 'refunded', at: now });
    }
    const emailId = await queueEmail(tx, {
      to: order.email,
      template: 'refund-issued',
      locale: order.locale,
      params: {
        amount: formatMoney(order.amountMinor, order.currency, lang),
        order: order.reference,
        method: order.paymentMethod,
      },
    });
    return { refund, repeated: false, outboxIds: [emailId] };
  });
}

/** Why an order was refunded, for Billing: `Billing.refundReason.*` in messages/*.json. */
export type RefundCause = 'unconsented_trial' | 'withdrawal' | 'requested';

/**
 * Why each of `orderIds` (refunded orders) was refunded: `withdrawal` when a withdrawal from the contract is recorded
 * for it (services/withdrawals.ts), `unconsented_trial` when the automatic refund of a trial in which nothing was
 * shared made it (its `order.refunded` domain event, services/unconsented-trials.ts), else `requested` (the buyer's
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
