import 'server-only';
import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { orders, subscriptions, type Order, type Subscription } from '../../db/schema';

/**
 * The one lock order of every path that moves money or ends a subscription: a buyer's refund and an operator's
 * (./refunds.ts), the automatic refund of an unconsented trial (./unconsented-trials.ts), a withdrawal
 * (./withdrawals.ts), a cancellation (./subscriptions.ts `cancelSubscriptions`), a sandbox renewal charge
 * (./renewals.ts `renewOne`) and a Stripe subscription update (server/payments/stripe-sync.ts). Each transaction
 * takes its row locks in this order and never goes back to an earlier step:
 *
 * 1. the order row(s), `FOR NO KEY UPDATE`, several in ascending id;
 * 2. then the subscription row(s) of those orders, `FOR UPDATE`, several in ascending id;
 * 3. then what the change touches: the buyer's location requests (`withdrawRequests`), the user's payment count, and
 *    new `payments`, `refunds`, `withdrawals` and outbox rows.
 *
 * PostgreSQL detects a cycle of waits and aborts one transaction with 40P01 (deadlock_detected); the documented remedy
 * is that all transactions "acquire locks on multiple objects in a consistent order" (PostgreSQL documentation,
 * "Explicit Locking", Deadlocks). `NO KEY UPDATE` rather than `UPDATE` on the order: the paths above still wait for
 * each other, but inserting a row that references the order (a `payments`, `refunds` or `withdrawals` row) takes
 * `FOR KEY SHARE` on it for the foreign key check, which `NO KEY UPDATE` does not block, and these paths never change
 * an order's key. (The checkout locks a *pending* order `FOR UPDATE` before it has a subscription; step 1 as well.)
 */

/** Row-lock options: `skipLocked` makes a background job pass over a row another transaction holds (none is waited for). */
export type LockOptions = { skipLocked?: boolean };

/**
 * Step 1: locks the order matching `where` `FOR NO KEY UPDATE` in `tx` and returns its current row; undefined when
 * none matches (or, with `skipLocked`, when another transaction holds it).
 */
export async function lockOrder(tx: Tx, where: SQL | undefined, opts: LockOptions = {}): Promise<Order | undefined> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(where)
    .for('no key update', opts.skipLocked ? { skipLocked: true } : {});
  return order;
}

/** Step 1 for several orders (a cancellation of every live subscription): `FOR NO KEY UPDATE` in ascending id. */
export async function lockOrders(tx: Tx, ids: string[]): Promise<Order[]> {
  if (!ids.length) return [];
  return tx.select().from(orders).where(inArray(orders.id, ids)).orderBy(asc(orders.id)).for('no key update');
}

/**
 * Step 2: locks the subscription `id` `FOR UPDATE` in `tx` (after its order, step 1) and returns its current row;
 * undefined when it does not exist (or, with `skipLocked`, when another transaction holds it).
 */
export async function lockSubscription(tx: Tx, id: string, opts: LockOptions = {}): Promise<Subscription | undefined> {
  const [sub] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, id))
    .for('update', opts.skipLocked ? { skipLocked: true } : {});
  return sub;
}

/** Step 2 for every subscription of order `orderId`, in ascending id; returns their current rows. */
export async function lockSubscriptionsOf(tx: Tx, orderId: string): Promise<Subscription[]> {
  return tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.orderId, orderId))
    .orderBy(asc(subscriptions.id))
    .for('update');
}
