import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  orders,
  priceSetups,
  subscriptions,
  users,
  type Order,
  type PriceSetup,
  type Subscription,
} from '../../db/schema';
import { PAID_STATES, buyerOrderState, type BuyerOrderState } from '../../../lib/order-machine';

// What the Billing page reads (docs/rules.md "Payments"; docs/features.md "Payments and subscriptions"): the buyer's
// orders in the states the buyer sees (lib/order-machine.ts `buyerOrderState`) and subscriptions with their prices.

/** What the billing page lists for a user: orders and subscriptions, each with what the page shows of it. */
export type BillingOverview = {
  /** The user's newest 100 orders, newest first, each in the state the buyer sees (lib/order-machine.ts). */
  orders: (Omit<Order, 'status'> & { status: BuyerOrderState })[];
  /** Every subscription of the user, newest first, with its order's price and code. */
  subscriptions: { sub: Subscription; price: PriceSetup; code: string }[];
};

/** The orders and subscriptions of user `userId` for `GET /admin/order/status` (read only). */
export async function billingOverview(db: Db, userId: string): Promise<BillingOverview> {
  const [orderRows, subscriptionRows] = await Promise.all([
    db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(100),
    db
      .select({ sub: subscriptions, price: priceSetups, code: orders.code })
      .from(subscriptions)
      .innerJoin(orders, eq(orders.id, subscriptions.orderId))
      .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
      .where(eq(subscriptions.userId, userId))
      .orderBy(desc(subscriptions.createdAt)),
  ]);
  return {
    orders: orderRows.map((order) => ({ ...order, status: buyerOrderState(order.status) })),
    subscriptions: subscriptionRows,
  };
}

/** The account's billing facts: payments made, its last paid (or refunded) order, its newest subscription's status. */
export type BillingFacts = {
  /** Successful payments of the account (users.payment_count); 0 when the row is gone. */
  paymentCount: number;
  /** The order paid last (paid or since refunded), or null. */
  lastOrder: Order | null;
  /** The newest subscription's status, or null without one. */
  subscriptionStatus: Subscription['status'] | null;
};

/** Billing facts of user `userId` for `GET /other/user/property` (read only). */
export async function billingFacts(db: Db, userId: string): Promise<BillingFacts> {
  const [[account], [last], [sub]] = await Promise.all([
    db.select({ paymentCount: users.paymentCount }).from(users).where(eq(users.id, userId)),
    db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), inArray(orders.status, [...PAID_STATES])))
      .orderBy(desc(orders.paidAt))
      .limit(1),
    db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1),
  ]);
  return { paymentCount: account?.paymentCount ?? 0, lastOrder: last ?? null, subscriptionStatus: sub?.status ?? null };
}
