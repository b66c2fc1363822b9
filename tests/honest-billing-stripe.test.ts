// First: the Stripe provider against the fake Stripe API (its settings are set when this is imported).
import { fake, stripe, STRIPE_WEBHOOK_SECRET } from './support/stripe-mode';
import { uniqueEmail } from './support/accounts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, refunds, subscriptions, withdrawals } from '@/server/db/schema';
import {
  claimRefund,
  lockOrder,
  REFUND_CLAIM_STALE_MS,
  refundOrder,
  runBillingCycle,
  withdraw,
} from '@/server/services/billing';
import { idleInTransaction } from './support/db-activity';
import type { FakeStripe } from './support/fake-stripe';
import { API, app } from './support/api';
import { emailsTo, markShared, placeOrder } from './support/billing';
import { log } from '@/server/observability/log';

const MINUTE = 60_000;
let eventCounter = 0;

beforeAll(() => fake.start());
afterAll(() => fake.stop());

/** Delivers a Stripe event of `type` about `object` to the webhook, signed as Stripe signs it. */
function deliver(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_honest_${++eventCounter}_${Date.now()}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return app.request(`${API}/webhooks/stripe`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET }),
    },
    body: payload,
  });
}

/** A Stripe order paid through Checkout (its trial ending in 24 hours), confirmed by the webhook. */
async function paidStripeTrial(email = uniqueEmail('stripe-trial')) {
  const { body } = await placeOrder({ email });
  const code = body.obj.code as string;
  const db = await getDb();
  const [pending] = await db.select().from(orders).where(eq(orders.code, code));
  const subId = `sub_honest_${code}`;
  const trialEnd = Date.now() + 86_400_000;
  fake.subscription(subId, 'trialing', trialEnd, { trial_end: Math.floor(trialEnd / 1000) });
  fake.pay(pending.providerSessionId!, subId, `pi_${code}`);
  const res = await deliver('checkout.session.completed', {
    id: pending.providerSessionId,
    object: 'checkout.session',
  });
  expect(res.status).toBe(200);
  const [order] = await db.select().from(orders).where(eq(orders.code, code));
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.orderId, order.id));
  return { email, code, order, sub, subId };
}

describe('Stripe: money back when nobody consented, and receipts', () => {
  it('an unshared trial: Stripe refunds with auto-refund-<order> and cancels before trial_end, once for 20 cycles', async () => {
    const { email, code, order, sub, subId } = await paidStripeTrial();
    const at = new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE);
    const db = await getDb();
    await Promise.all(Array.from({ length: 20 }, () => runBillingCycle(db, at)));
    await runBillingCycle(db, new Date(at.getTime() + MINUTE));

    const sentRefunds = fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`));
    expect(sentRefunds).toHaveLength(1);
    expect(sentRefunds[0].idempotencyKey).toBe(`auto-refund-${code}`);
    expect(sentRefunds[0].body).toContain(`amount=${order.amountMinor}`);
    const cancels = fake.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subId}`);
    expect(cancels).toHaveLength(1);
    expect(fake.subscriptions.get(subId)!.status).toBe('canceled');
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    const [ended] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(ended.status).toBe('canceled');
    expect(await emailsTo(email, 'trial-refunded')).toHaveLength(1);

    // Stripe's own "deleted" event afterwards changes nothing more.
    expect((await deliver('customer.subscription.deleted', { id: subId, object: 'subscription' })).status).toBe(200);
    expect((await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0].status).toBe('canceled');
  });

  it('a Stripe refund that fails is retried the next minute with the same key; the trial is not refunded twice', async () => {
    const { code, order, sub } = await paidStripeTrial();
    const db = await getDb();
    const at = sub.currentPeriodEnd.getTime() - 8 * MINUTE;
    // This order's refund fails twice (the SDK retries once), then the run gives up on this trial.
    fake.failMatching = { test: (path, body) => path === '/v1/refunds' && body.includes(`pi_${code}`), times: 2 };
    const logged = vi.spyOn(log(), 'error').mockImplementation(() => {});
    await runBillingCycle(db, new Date(at));
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ subscriptionId: sub.id }),
      'unconsented trial: refund failed, retried next minute',
    );
    logged.mockRestore();
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(0);
    await runBillingCycle(db, new Date(at + MINUTE));
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    const keys = fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`));
    expect(new Set(keys.map((r) => r.idempotencyKey))).toEqual(new Set([`auto-refund-${code}`]));
  });

  it('a shared trial is left to Stripe; the conversion invoice and each renewal e-mail a receipt, the first invoice none', async () => {
    const { email, code, order, sub, subId } = await paidStripeTrial();
    await markShared(order.id);
    const db = await getDb();
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE));
    expect(fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`))).toHaveLength(0);
    expect(fake.subscriptions.get(subId)!.status).toBe('trialing');

    // The first invoice (the trial fee) is receipted by the order e-mail.
    const invoice = { object: 'invoice', parent: { subscription_details: { subscription: subId } } };
    fake.invoice(`in_first_${code}`, subId, order.amountMinor, 'subscription_create');
    await deliver('invoice.paid', { id: `in_first_${code}`, ...invoice });
    expect(await emailsTo(email, 'payment-receipt')).toHaveLength(0);

    // Stripe converts the trial: the subscription is active for a month and the invoice is paid.
    const monthEnd = sub.currentPeriodEnd.getTime() + 30 * 86_400_000;
    fake.subscription(subId, 'active', monthEnd);
    fake.invoice(`in_cycle_${code}`, subId, 4999);
    await deliver('invoice.paid', { id: `in_cycle_${code}`, ...invoice });
    const [receipt] = await emailsTo(email, 'payment-receipt');
    expect(receipt.body).toContain('US$49.99 for one month of the plan, charged on');
    expect(receipt.body).toContain('/cancel/ (no sign-in needed)');
    expect(receipt.body).toContain('Your card statement shows:');
  });
});

/** A request to the fake Stripe: the refund of order `code`'s payment, or (with `subId`) the cancel of a subscription. */
const toStripe = (code: string, subId?: string) => (r: FakeStripe['requests'][number]) =>
  subId
    ? r.method === 'DELETE' && r.path === `/v1/subscriptions/${subId}`
    : r.path === '/v1/refunds' && r.body.includes(`pi_${code}`);

/**
 * Runs `act` (a refund, a withdrawal, a billing cycle) while the fake Stripe holds its answers, and checks, once
 * `asked` (a request of `toStripe`) has reached Stripe, that no transaction is open and the order row is not locked:
 * another connection takes it `FOR UPDATE NOWAIT` at once (docs/decisions/0009). The order reads `refunding` with its
 * claim's key `key` meanwhile (services/billing/refund-claims.ts). Returns what `act` returned.
 */
async function whileStripeAnswers<T>(
  asked: (r: FakeStripe['requests'][number]) => boolean,
  orderId: string,
  key: string,
  act: () => Promise<T>,
): Promise<T> {
  const db = await getDb();
  let release!: () => void;
  fake.hold = new Promise((resolve) => (release = resolve));
  // Only this order's call waits: another order's (a trial of an earlier test the same billing run takes first) is
  // answered, so the run reaches this one.
  fake.holdOnly = asked;
  const running = act();
  try {
    const sent = () => fake.requests.some(asked);
    for (let waited = 0; !sent(); waited += 20) {
      expect(waited).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await idleInTransaction()).toBe(0);
    await db.transaction((tx) => tx.execute(sql`select id from orders where id = ${orderId} for update nowait`));
    const [claimed] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(claimed.status).toBe('refunding');
    expect(claimed.refundClaim?.key).toBe(key);
  } finally {
    fake.hold = null;
    fake.holdOnly = null;
    release();
  }
  return running;
}

describe('Stripe: money moves with no transaction open (claim, call, record)', () => {
  it("a buyer's refund: the order is claimed, Stripe asked with no lock held, then the refund recorded", async () => {
    const { code, order, subId } = await paidStripeTrial();
    const db = await getDb();
    const result = await whileStripeAnswers(toStripe(code), order.id, `refund-${code}`, () =>
      refundOrder(db, order.userId!, code, 'en'),
    );
    expect(result.repeated).toBe(false);
    const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(after.status).toBe('refunded');
    expect(after.refundClaim).toBeNull();
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    expect(fake.subscriptions.get(subId)!.status).toBe('canceled');
  });

  it('a withdrawal: Stripe cancels and refunds with no lock held, then the withdrawal is recorded', async () => {
    const { code, order, sub, subId } = await paidStripeTrial();
    const db = await getDb();
    // The subscription is cancelled first (nothing more is charged while the money goes back), then the refund.
    const result = await whileStripeAnswers(toStripe(code, subId), order.id, `withdraw-${code}`, () =>
      withdraw(db, { userId: order.userId!, code, ip: null, userAgent: null }),
    );
    expect(result.repeated).toBe(false);
    expect(result.withdrawal.refundMinor).toBe(order.amountMinor);
    expect(await db.select().from(withdrawals).where(eq(withdrawals.orderId, order.id))).toHaveLength(1);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0].status).toBe('refunded');
    expect((await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0].status).toBe('canceled');
  });

  it('an unconsented trial: the billing cycle refunds with no lock held', async () => {
    const { code, order, sub } = await paidStripeTrial();
    const db = await getDb();
    const refunded = async () =>
      (await db.select().from(orders).where(eq(orders.id, order.id)))[0].status === 'refunded';
    // Test files share one database: another file's cycle may take this trial first, fail (it has no Stripe key) and
    // release it, so this one runs the cycle until the trial is refunded.
    await whileStripeAnswers(toStripe(code), order.id, `auto-refund-${code}`, async () => {
      for (let run = 0; run < 20 && !(await refunded()); run++)
        await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE));
    });
    expect(await refunded()).toBe(true);
  });

  it('a refund Stripe refuses puts the order back to paid; asking again refunds once, with the same key', async () => {
    const { code, order } = await paidStripeTrial();
    const db = await getDb();
    fake.failMatching = { test: (path, body) => path === '/v1/refunds' && body.includes(`pi_${code}`), times: 2 };
    await expect(refundOrder(db, order.userId!, code, 'en')).rejects.toThrow();
    const [released] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(released.status).toBe('paid');
    expect(released.refundClaim).toBeNull();
    expect((await refundOrder(db, order.userId!, code, 'en')).repeated).toBe(false);
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    const keys = fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`));
    expect(new Set(keys.map((r) => r.idempotencyKey))).toEqual(new Set([`refund-${code}`]));
  });

  it('a claim left by a crashed process is finished by the billing cycle once stale, with its stored key', async () => {
    const { email, code, order } = await paidStripeTrial();
    const db = await getDb();
    // The claim committed, then the process died before asking Stripe.
    await db.transaction(async (tx) => {
      const locked = await lockOrder(tx, eq(orders.id, order.id));
      await claimRefund(tx, locked!, {
        cause: 'requested',
        key: `refund-${code}`,
        amountMinor: order.amountMinor,
        at: new Date().toISOString(),
        lang: 'en',
        cancel: [],
      });
    });
    // A fresh claim is its claimer's: the cycle leaves it alone.
    await runBillingCycle(db);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0].status).toBe('refunding');
    await db
      .update(orders)
      .set({ refundClaimedAt: new Date(Date.now() - REFUND_CLAIM_STALE_MS - MINUTE) })
      .where(eq(orders.id, order.id));
    await runBillingCycle(db);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0].status).toBe('refunded');
    expect(await db.select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    const sent = fake.requests.filter((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`));
    expect(sent.map((r) => r.idempotencyKey)).toEqual([`refund-${code}`]);
    expect(await emailsTo(email, 'refund-issued')).toHaveLength(1);
  });
});
