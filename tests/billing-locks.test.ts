import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, payments, refunds, withdrawals } from '@/server/db/schema';
import { env } from '@/server/env';
import { runBillingCycle } from '@/server/services/billing';
import { call } from './support/accounts';
import { markShared, subscribe, subscriptionById } from './support/billing';

// The one lock order of the billing paths (server/services/billing/billing-locks.ts): a refund, a withdrawal, a cancellation
// and a renewal charge of the same order, all at once, never wait on each other in a cycle (PostgreSQL 40P01).

const MINUTE = 60_000;
const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

afterEach(() => {
  env().REFUND_UNCONSENTED_TRIALS = true;
});

/**
 * Deadlocks PostgreSQL has detected in this database since it started (`pg_stat_database.deadlocks`, counted by the
 * backend that was aborted). Statistics reach the shared view within a second of a transaction's end (PostgreSQL
 * 15+ flushes pending statistics at most once a second), so the read waits that long and drops the cached snapshot.
 */
async function deadlocks(): Promise<number> {
  const db = await getDb();
  await new Promise((r) => setTimeout(r, 1200));
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const { rows } = await db.$client.query<{ deadlocks: string }>(
    'select deadlocks from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0].deadlocks);
}

/** What happened to `orderId`: its refunds, withdrawals and successful charges (minor units). */
async function outcome(orderId: string) {
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const refundRows = await db.select().from(refunds).where(eq(refunds.orderId, orderId));
  const withdrawalRows = await db.select().from(withdrawals).where(eq(withdrawals.orderId, orderId));
  const charged = (await db.select().from(payments).where(eq(payments.orderId, orderId)))
    .filter((p) => p.status === 'succeeded')
    .reduce((sum, p) => sum + p.amountMinor, 0);
  return { order, refundRows, withdrawalRows, charged };
}

/**
 * Fires, at once, `each` buyer refunds, withdrawals and cancellations through the API (as the Billing page sends them)
 * and `each` billing cycles at `at` (a renewal charge due, or the unconsented-trial refund), interleaved. Returns the
 * API answers' statuses and the refusal reasons.
 */
async function race(code: string, cookie: string, at: Date, each = 6) {
  const db = await getDb();
  const ops: Promise<{ status: number; reason?: string } | 'cycle'>[] = [];
  const api = async (method: string, path: string, body?: Record<string, string>) => {
    const res = await call(method, path, { body, headers: { cookie } });
    const json = await res.json();
    return { status: res.status, reason: json.reason as string | undefined };
  };
  for (let i = 0; i < each; i++) {
    ops.push(api('POST', '/admin/order/refund', { code }));
    ops.push(runBillingCycle(db, at).then(() => 'cycle' as const));
    ops.push(api('POST', '/admin/withdraw/confirm', { code, timeZone: 'Europe/Madrid' }));
    ops.push(api('PUT', '/admin/user/cancelSubscribe'));
  }
  const results = await Promise.all(ops);
  return results.filter((r): r is { status: number; reason?: string } => r !== 'cycle');
}

describe('refund, withdrawal, cancel and renewal on one order at once (24 operations)', () => {
  it('a trial converting while a refund is still allowed: no deadlock, exactly one refund, nothing charged after it', async () => {
    // Off, so the renewal charges the unshared trial while the buyer's refund is eligible: the charge inserts a
    // `payments` row (KEY SHARE on the order) while refunds and withdrawals hold the order and want the subscription.
    env().REFUND_UNCONSENTED_TRIALS = false;
    const { code, cookie, order, sub } = await subscribe(unique('locks-convert'));
    const before = await deadlocks();
    const answers = await race(code, cookie, new Date(sub.currentPeriodEnd.getTime() + MINUTE));
    // A deadlock would surface as a 500 from the API or abort a cycle (Promise.all rejects); neither happens.
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await deadlocks()).toBe(before);
    const { order: after, refundRows, withdrawalRows, charged } = await outcome(order.id);
    expect(refundRows).toHaveLength(1);
    expect(after.status).toBe('refunded');
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    // Refused answers name why: the order was already refunded (by the other path).
    for (const a of answers.filter((x) => x.status === 409)) expect(a.reason).toBe('already_refunded');
    // A withdrawal that won refunded everything charged, the renewal included; no charge came after the refund.
    if (withdrawalRows.length) expect(refundRows[0].amountMinor).toBe(charged);
    await runBillingCycle(await getDb(), new Date(sub.currentPeriodEnd.getTime() + 40 * 24 * 3600_000));
    expect((await outcome(order.id)).charged).toBe(charged);
  });

  it('a trial in which nothing was shared: the automatic refund among them, still one refund', async () => {
    const { code, cookie, order, sub } = await subscribe(unique('locks-unconsented'));
    const before = await deadlocks();
    const answers = await race(code, cookie, new Date(sub.currentPeriodEnd.getTime() - 3 * MINUTE));
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await deadlocks()).toBe(before);
    const { refundRows, charged } = await outcome(order.id);
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0].amountMinor).toBe(order.amountMinor);
    expect(charged).toBeLessThanOrEqual(order.amountMinor);
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
  });

  it('a shared trial converting: the refund is refused, the withdrawal refunds the trial and the renewal, once', async () => {
    const { code, cookie, order, sub } = await subscribe(unique('locks-shared'));
    await markShared(order.id);
    const before = await deadlocks();
    const answers = await race(code, cookie, new Date(sub.currentPeriodEnd.getTime() + MINUTE));
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await deadlocks()).toBe(before);
    const { refundRows, withdrawalRows, charged } = await outcome(order.id);
    expect(withdrawalRows).toHaveLength(1);
    expect(refundRows).toHaveLength(1);
    expect(refundRows[0].amountMinor).toBe(charged);
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
  });
});
