import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { payments, subscriptions, type Order, type Subscription } from '../../db/schema';
import { locationSharedSince } from './subscriptions';
import { withdrawalQuote, type WithdrawalQuote } from './withdrawal-rule';

/**
 * The withdrawal quote of one paid order, read from the database: the one place that feeds the pure rule of
 * ./withdrawal-rule.ts (Directive 2011/83/EU Art. 9, 13, 14(3)) with an order's facts. The withdrawal itself
 * (./withdrawals.ts) and the refund refusal that points to it (./refunds.ts `refundCheck`) both quote
 * through here, so what Billing says a withdrawal gives back and what the withdrawal then refunds never differ
 * (docs/rules.md#states).
 */

/** The newest subscription of order `orderId` (the one its contract runs as), or undefined without one. */
export async function subscriptionOfOrder(db: Db | Tx, orderId: string): Promise<Subscription | undefined> {
  const [sub] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.orderId, orderId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return sub;
}

/**
 * The quote of a withdrawal from `order` (paid: `paidAt` set) with its subscription `sub` at `now`: its successful
 * charges (minor units; a charge recorded before `payments` existed counts as the order's own amount) and whether a
 * location was shared since the payment (./subscriptions.ts `locationSharedSince`), which counts only when the
 * buyer asked for the service to start at once (`orders.start_now`). Returns `withdrawalQuote`'s answer.
 */
export async function quoteOfOrder(
  db: Db | Tx,
  order: Order,
  sub: Subscription | undefined,
  now: Date,
): Promise<WithdrawalQuote> {
  const charges = await db
    .select({ amountMinor: payments.amountMinor, at: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.status, 'succeeded')));
  if (!charges.length) charges.push({ amountMinor: order.amountMinor, at: order.paidAt! });
  return withdrawalQuote({
    paidAt: order.paidAt!,
    now,
    startNow: order.startNow,
    shared: order.startNow && !!order.userId && (await locationSharedSince(db, order.userId, order.paidAt!)),
    charges,
    currentPeriodEnd: sub?.currentPeriodEnd ?? null,
    ended: !sub || sub.status === 'canceled',
  });
}
