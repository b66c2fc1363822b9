import 'server-only';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { orders } from '../../db/schema';
import { ORDER_TRANSITIONS, type OrderEvent, type OrderState } from '../../../lib/order-machine';

// The order machine applied to the database (lib/order-machine.ts, docs/order-states.md): every status write of an
// order is one conditional UPDATE, in the idiom of the location request's (docs/decisions/0007).

/** Columns an event may set beside the status (the payment's facts, the failure, the refund's time, …). */
export type OrderColumns = Partial<
  Pick<
    typeof orders.$inferInsert,
    | 'failureCode'
    | 'pendingAction'
    | 'paidAt'
    | 'userId'
    | 'sandboxRenewal'
    | 'cardLast4'
    | 'cardBrand'
    | 'payerKey'
    | 'providerPaymentId'
    | 'refundedAt'
    | 'refundClaim'
    | 'refundClaimedAt'
  >
>;

/**
 * Applies `event` to order `id` as one conditional UPDATE (lib/order-machine.ts `ORDER_TRANSITIONS`, in the idiom of
 * docs/decisions/0007): `UPDATE orders SET status = to, … WHERE id = $1 AND status IN (from…) [AND also]`. The row
 * moves only when its status, read by PostgreSQL at the moment of the write, is one the event may be taken in, so two
 * racing events never both apply to one state. `set` adds columns to the same write; `also` is an extra condition.
 * Returns the new state, or null when nothing moved (wrong state, condition false, unknown id). Every write of
 * `orders.status` goes through here.
 */
export async function applyOrderEvent(
  db: Db | Tx,
  id: string,
  event: OrderEvent,
  set: OrderColumns = {},
  also?: SQL,
): Promise<OrderState | null> {
  const [row] = await db
    .update(orders)
    .set({ ...set, status: ORDER_TRANSITIONS[event].to })
    .where(and(eq(orders.id, id), inArray(orders.status, [...ORDER_TRANSITIONS[event].from]), also))
    .returning({ status: orders.status });
  return row?.status ?? null;
}
