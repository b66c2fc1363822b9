// First: the Stripe provider against the fake Stripe API (its settings are set when this is imported).
import { fake, stripe, STRIPE_WEBHOOK_SECRET, stripeOrder } from './support/stripe-mode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, sessions, subscriptions, users, webhookEvents } from '@/server/db/schema';
import { API, app } from './support/api';
import { call, uniqueEmail } from './support/accounts';
import { emailsTo } from './support/billing';
import { idleInTransaction } from './support/db-activity';
import { log } from '@/server/observability/log';

let eventCounter = 0;

beforeAll(() => fake.start());
afterAll(() => fake.stop());

/** A Stripe event of `type` about `object`, with a fresh id unless `id` is given. */
function event(type: string, object: Record<string, unknown>, id = `evt_${++eventCounter}_${Date.now()}`) {
  return JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
}

/** Delivers `payload` to the webhook as Stripe does, signed with `secret`. */
function deliver(payload: string, secret = STRIPE_WEBHOOK_SECRET) {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return app.request(`${API}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

async function accountsOf(email: string) {
  return (await getDb()).select().from(users).where(eq(users.email, email));
}

describe('Stripe provider and webhooks (Stripe webhooks docs)', () => {
  it('starts Stripe Checkout with a one-day trial, the trial fee, and an idempotency key per order', async () => {
    const { code, next } = await stripeOrder();
    // The buyer stays on the site: Stripe's checkout is embedded in our checkout page.
    expect(next).toBe(`/checkout/?order=${code}`);
    const create = fake.requests.find((r) => r.path === '/v1/checkout/sessions' && r.body.includes(code))!;
    expect(create.idempotencyKey).toBe(`checkout-${code}`);
    expect(create.body).toContain('ui_mode=embedded_page');
    expect(create.body).toContain(
      `return_url=http://localhost:3000/paystatus/?order=${code}&session_id={CHECKOUT_SESSION_ID}`,
    );
    expect(create.body).toContain('subscription_data[trial_period_days]=1');
    expect(create.body).toContain('mode=subscription');
    expect(create.body).toContain('line_items[1][price_data][unit_amount]=99');
    expect(create.body).toContain('line_items[0][price_data][recurring][interval]=month');
  });

  it('a bad signature answers 400 and changes nothing', async () => {
    const { sessionId, code } = await stripeOrder();
    fake.subscription(`sub_bad_${code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, `sub_bad_${code}`);
    const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session' });
    const res = await deliver(payload, 'whsec_wrong');
    expect(res.status).toBe(400);
    const tampered = await app.request(`${API}/webhooks/stripe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET }),
      },
      body: payload.replace('checkout.session.completed', 'invoice.paid'),
    });
    expect(tampered.status).toBe(400);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, code));
    expect(order.status).toBe('pending');
    const id = JSON.parse(payload).id;
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.eventId, id))).toHaveLength(0);
  });

  it('the same event delivered 20 times at once makes one account and one e-mail', async () => {
    const { sessionId, code, email } = await stripeOrder();
    fake.subscription(`sub_20_${code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, `sub_20_${code}`);
    const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(payload)));
    const results = await Promise.all(answers.map(async (r) => (await r.json()).obj?.result));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r === 'handled')).toHaveLength(1);
    expect(results.filter((r) => r === 'duplicate')).toHaveLength(19);
    expect(await accountsOf(email)).toHaveLength(1);
    expect(await emailsTo(email, 'order-credentials')).toHaveLength(1);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, code));
    expect(order).toMatchObject({ status: 'paid', providerPaymentId: 'pi_test_1' });
  });

  it('an order whose e-mail became an account before Stripe confirmed it opens no session and issues no password', async () => {
    const first = await stripeOrder();
    const second = await stripeOrder(first.email);
    const complete = async (o: typeof first, tag: string) => {
      fake.subscription(`sub_${tag}_${o.code}`, 'trialing', Date.now() + 86_400_000);
      fake.pay(o.sessionId, `sub_${tag}_${o.code}`);
      const payload = event('checkout.session.completed', { id: o.sessionId, object: 'checkout.session' });
      expect((await deliver(payload)).status).toBe(200);
    };
    await complete(first, 'owner');
    const [account] = await accountsOf(first.email);
    const ret = await call('GET', `/portal/user/checkRegister/${second.code}`);
    expect(ret.headers.get('set-cookie')).toBeNull();
    await complete(second, 'late');
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.code, second.code));
    expect(order).toMatchObject({ status: 'paid', userId: account.id });
    expect(await db.select().from(sessions).where(eq(sessions.userId, account.id))).toHaveLength(0);
    const mails = await emailsTo(first.email, 'order-credentials');
    expect(mails).toHaveLength(2);
    expect(mails.filter((m) => /Temporary password/.test(m.body))).toHaveLength(1);
    expect((await accountsOf(first.email))[0].paymentCount).toBe(2);
  });

  it('return page before the webhook, after it, or at the same time: one account, one e-mail', async () => {
    for (const order of ['return-first', 'webhook-first', 'together'] as const) {
      const { sessionId, code, email } = await stripeOrder(uniqueEmail(order));
      fake.subscription(`sub_${order}_${code}`, 'trialing', Date.now() + 86_400_000);
      fake.pay(sessionId, `sub_${order}_${code}`);
      const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session' });
      const ret = () => call('GET', `/portal/user/checkRegister/${code}`);
      if (order === 'return-first') {
        expect((await (await ret()).json()).obj.status).toBe('paid');
        expect((await (await deliver(payload)).json()).obj.result).toBe('handled');
      } else if (order === 'webhook-first') {
        await deliver(payload);
        expect((await (await ret()).json()).obj.status).toBe('paid');
      } else {
        await Promise.all([deliver(payload), ret(), ret()]);
      }
      expect(await accountsOf(email)).toHaveLength(1);
      expect(await emailsTo(email, 'order-credentials')).toHaveLength(1);
      const subs = await (
        await getDb()
      )
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.providerSubscriptionId, `sub_${order}_${code}`));
      expect(subs).toHaveLength(1);
    }
  });

  it("keeps the paying card's scheme and last four from the subscription's payment method, for the receipt", async () => {
    const { sessionId, code } = await stripeOrder();
    fake.subscription(`sub_card_${code}`, 'trialing', Date.now() + 86_400_000, {
      default_payment_method: {
        id: 'pm_card_1',
        object: 'payment_method',
        type: 'card',
        card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034 },
      },
    });
    fake.pay(sessionId, `sub_card_${code}`);
    const view = (await (await call('GET', `/portal/user/checkRegister/${code}`)).json()).obj;
    expect(view).toMatchObject({ status: 'paid', card: '4444', cardBrand: 'mastercard' });
    // Without a card (a wallet, or a payment method Stripe did not expand) the receipt names only the amount.
    const other = await stripeOrder();
    fake.subscription(`sub_nocard_${other.code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(other.sessionId, `sub_nocard_${other.code}`);
    const plain = (await (await call('GET', `/portal/user/checkRegister/${other.code}`)).json()).obj;
    expect(plain).toMatchObject({ status: 'paid', card: null, cardBrand: null });
  });

  it('out-of-order events end in the state Stripe has now (re-fetched, never trusted from the event)', async () => {
    const { sessionId, code } = await stripeOrder();
    const subId = `sub_order_${code}`;
    const trialEnd = Date.now() + 86_400_000;
    fake.subscription(subId, 'trialing', trialEnd);
    fake.pay(sessionId, subId);
    await deliver(event('checkout.session.completed', { id: sessionId, object: 'checkout.session' }));
    // At Stripe: the conversion failed, then a retry succeeded. The events arrive newest first.
    const monthEnd = trialEnd + 30 * 86_400_000;
    fake.subscription(subId, 'active', monthEnd);
    const invoice = { object: 'invoice', parent: { subscription_details: { subscription: subId } } };
    fake.invoice('in_2', subId, 4999);
    await deliver(event('invoice.paid', { id: 'in_2', ...invoice }));
    await deliver(event('invoice.payment_failed', { id: 'in_1', ...invoice }));
    const db = await getDb();
    let [sub] = await db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subId));
    expect(sub.status).toBe('active');
    expect(Math.floor(sub.currentPeriodEnd.getTime() / 1000)).toBe(Math.floor(monthEnd / 1000));
    // Later Stripe cancels it; an old "updated" event carrying a past state still ends canceled.
    fake.subscriptions.get(subId)!.status = 'canceled';
    await deliver(event('customer.subscription.updated', { id: subId, object: 'subscription', status: 'trialing' }));
    [sub] = await db.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, subId));
    expect(sub.status).toBe('canceled');
  });

  it('asks Stripe before the transaction: none is open while Stripe answers an invoice.paid event', async () => {
    const { sessionId, code } = await stripeOrder();
    const subId = `sub_held_${code}`;
    fake.subscription(subId, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, subId);
    await deliver(event('checkout.session.completed', { id: sessionId, object: 'checkout.session' }));
    const monthEnd = Date.now() + 31 * 86_400_000;
    fake.subscription(subId, 'active', monthEnd);
    fake.invoice(`in_held_${code}`, subId, 4999);
    const invoice = { object: 'invoice', parent: { subscription_details: { subscription: subId } } };
    const before = fake.requests.length;
    let release = () => {};
    fake.hold = new Promise((resolve) => (release = resolve));
    try {
      const answer = deliver(event('invoice.paid', { id: `in_held_${code}`, ...invoice }));
      // Both look-ups (the subscription and the invoice) are at Stripe, unanswered: no transaction waits on them.
      await vi.waitFor(() => expect(fake.requests.length - before).toBe(2));
      expect(await idleInTransaction()).toBe(0);
      release();
      expect((await (await answer).json()).obj.result).toBe('handled');
    } finally {
      fake.hold = null;
      release();
    }
    const [sub] = await (
      await getDb()
    )
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, subId));
    expect(sub.status).toBe('active');
  });

  it('a failing handler answers 500 and records nothing, so the retry is handled', async () => {
    const { sessionId, code, email } = await stripeOrder();
    fake.subscription(`sub_retry_${code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, `sub_retry_${code}`);
    const payload = event('checkout.session.completed', { id: sessionId, object: 'checkout.session' });
    fake.failNext = 2; // the SDK retries once
    // The unexpected error reaches the JSON log (pino), without the payload.
    const logged = vi.spyOn(log(), 'error').mockImplementation(() => {});
    const first = await deliver(payload);
    expect(first.status).toBe(500);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ route: '/api_f/v1/webhooks/stripe' }),
      'unexpected error',
    );
    logged.mockRestore();
    expect(await accountsOf(email)).toHaveLength(0);
    const retry = await deliver(payload);
    expect((await retry.json()).obj.result).toBe('handled');
    expect(await accountsOf(email)).toHaveLength(1);
  });

  it('cancel and refund go to Stripe: cancel_at_period_end, and a refund with its idempotency key', async () => {
    const { sessionId, code } = await stripeOrder();
    const subId = `sub_cancel_${code}`;
    fake.subscription(subId, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, subId, `pi_${code}`);
    // The return page signs nobody in for Stripe orders; sign in with the e-mailed temporary password instead.
    await call('GET', `/portal/user/checkRegister/${code}`);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, code));
    const [mail] = await emailsTo(order.email, 'order-credentials');
    const password = /Temporary password: (\S+)/.exec(mail.body)![1];
    const login = await call('POST', '/admin/userSession', { body: { email: order.email, password } });
    const cookie = `token=${/token=([^;]+)/.exec(login.headers.get('set-cookie')!)![1]}`;
    await call('PUT', '/admin/user/password', {
      body: { password, newPassword: 'correct horse battery' },
      headers: { cookie },
    });
    const relog = await call('POST', '/admin/userSession', {
      body: { email: order.email, password: 'correct horse battery' },
    });
    const session = `token=${/token=([^;]+)/.exec(relog.headers.get('set-cookie')!)![1]}`;

    await call('PUT', '/admin/user/cancelSubscribe', { headers: { cookie: session } });
    expect(fake.subscriptions.get(subId)!.cancel_at_period_end).toBe(true);
    const refund = await call('POST', '/admin/order/refund', { body: { code }, headers: { cookie: session } });
    expect(refund.status).toBe(200);
    const sent = fake.requests.find((r) => r.path === '/v1/refunds' && r.body.includes(`pi_${code}`))!;
    expect(sent.idempotencyKey).toBe(`refund-${code}`);
    expect(fake.subscriptions.get(subId)!.status).toBe('canceled');
  });
});

describe('the return page (GET /portal/user/checkRegister/{code}) with Stripe', () => {
  const status = (code: string, ip?: string) => call('GET', `/portal/user/checkRegister/${code}`, { ip });
  const retrievals = (sessionId: string) =>
    fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`).length;

  it('asks Stripe with no database transaction open, then completes the order', async () => {
    const { sessionId, code, email } = await stripeOrder();
    fake.subscription(`sub_slow_${code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, `sub_slow_${code}`);
    let release = () => {};
    fake.hold = new Promise((resolve) => (release = resolve));
    try {
      const answer = status(code);
      await vi.waitFor(() => expect(retrievals(sessionId)).toBe(1));
      // Stripe has the request and has not answered: nothing waits on it inside a transaction.
      expect(await idleInTransaction()).toBe(0);
      release();
      expect((await (await answer).json()).obj.status).toBe('paid');
    } finally {
      fake.hold = null;
      release();
    }
    expect(await accountsOf(email)).toHaveLength(1);
  });

  it('30 calls at once for a paid session complete the order once: one account, one e-mail', async () => {
    const { sessionId, code, email } = await stripeOrder();
    fake.subscription(`sub_30_${code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(sessionId, `sub_30_${code}`);
    const answers = await Promise.all(Array.from({ length: 30 }, () => status(code)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(await accountsOf(email)).toHaveLength(1);
    expect(await emailsTo(email, 'order-credentials')).toHaveLength(1);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, code));
    expect(order.status).toBe('paid');
  });

  it('asks Stripe at most 30 times a minute per order; past that the status comes from the database', async () => {
    const { sessionId, code } = await stripeOrder();
    const answers = await Promise.all(Array.from({ length: 40 }, () => status(code)));
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200));
    const bodies = await Promise.all(answers.map(async (r) => (await r.json()).obj.status));
    expect(new Set(bodies)).toEqual(new Set(['pending']));
    expect(retrievals(sessionId)).toBe(30);
  });

  it('answers 429 with Retry-After past 120 calls a minute from one IP', async () => {
    const { code } = await stripeOrder(uniqueEmail('status-ip'));
    const ip = '198.51.100.77';
    const answers = await Promise.all(Array.from({ length: 125 }, () => status(code, ip)));
    const codes = answers.map((r) => r.status);
    expect(codes.filter((s) => s === 200)).toHaveLength(120);
    expect(codes.filter((s) => s === 429)).toHaveLength(5);
    expect(Number(answers.find((r) => r.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await status(code)).status).toBe(200);
  });
});
