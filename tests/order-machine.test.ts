import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { ORDER_EVENTS, ORDER_STATES, nextOrderState, type OrderEvent, type OrderState } from '@/lib/order-machine';
import { applyOrderEvent } from '@/server/services/billing';
import { uniqueEmail } from './support/accounts';
import { placeOrder } from './support/billing';

// The order state machine (lib/order-machine.ts): the table itself, and every pair of racing events applied through
// PostgreSQL as conditional UPDATEs (server/services/billing/order-transitions.ts).

describe('the order transition table', () => {
  it('reaches every state but created from pending, and nothing leaves refunded or canceled', () => {
    const seen = new Set<OrderState>(['pending']);
    for (let grew = true; grew;) {
      grew = false;
      for (const s of [...seen])
        for (const e of ORDER_EVENTS) {
          const to = nextOrderState(s, e);
          if (to && !seen.has(to)) {
            seen.add(to);
            grew = true;
          }
        }
    }
    expect([...seen].sort()).toEqual(ORDER_STATES.filter((s) => s !== 'created').sort());
    for (const s of ['refunded', 'canceled'] as const)
      expect(ORDER_EVENTS.filter((e) => nextOrderState(s, e))).toEqual([]);
  });

  it('pays only a payable order, once; supersedes only an unpaid one', () => {
    for (const s of ORDER_STATES) expect(nextOrderState(s, 'paid') !== null).toBe(s === 'pending' || s === 'failed');
    expect(nextOrderState('paid', 'superseded')).toBeNull();
    expect(nextOrderState('created', 'superseded')).toBe('canceled');
  });
});

/** A copy of order `template` put in `state` directly (the races start from every state). */
async function orderIn(state: OrderState, template: typeof orders.$inferSelect) {
  const db = await getDb();
  const tag = crypto.randomUUID().replace(/-/g, '');
  const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = template;
  const [row] = await db
    .insert(orders)
    .values({
      ...rest,
      code: `om${tag}`,
      reference: `CH-T${tag.slice(0, 10).toUpperCase()}`,
      idempotencyKey: null,
      providerSessionId: null,
      status: state,
    })
    .returning({ id: orders.id });
  return row.id;
}

/** The state after `events` one after the other, as the table says. */
const sequential = (from: OrderState, events: OrderEvent[]) =>
  events.reduce<OrderState>((s, e) => nextOrderState(s, e) ?? s, from);

describe('every pair of racing order events, applied as one conditional UPDATE each', () => {
  it('ends in the state of one of the two orders, from every state', async () => {
    const { body } = await placeOrder({ email: uniqueEmail('order-machine') });
    const db = await getDb();
    const [template] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
    const pairs: [OrderEvent, OrderEvent][] = [];
    ORDER_EVENTS.forEach((a, i) => ORDER_EVENTS.slice(i).forEach((b) => pairs.push([a, b])));
    let checked = 0;
    for (const from of ORDER_STATES) {
      await Promise.all(
        pairs.map(async ([a, b]) => {
          const id = await orderIn(from, template);
          // Each in its own transaction on its own pooled connection, at once.
          const [ra, rb] = await Promise.all([
            db.transaction((tx) => applyOrderEvent(tx, id, a)),
            db.transaction((tx) => applyOrderEvent(tx, id, b)),
          ]);
          const [{ status }] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
          expect([sequential(from, [a, b]), sequential(from, [b, a])]).toContain(status);
          // Each answer is what moved (or null), and the row holds the last write.
          for (const r of [ra, rb]) if (r !== null) expect(ORDER_STATES).toContain(r);
          checked++;
        }),
      );
    }
    expect(checked).toBe(ORDER_STATES.length * pairs.length);
  });
});
