import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, payments, users } from '@/server/db/schema';
import { call } from './support/accounts';
import { emailsTo, expectOrderRefused, nextPhone, payCard, placeOrder, subscribe } from './support/billing';

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

describe('prices and the discount offer (docs/rules.md#entities, #states)', () => {
  it('GET /portal/priceSetup gives the plan shape of docs/rules.md#entities from price_setups', async () => {
    const res = await call('GET', '/portal/priceSetup');
    const { obj } = await res.json();
    expect(obj).toMatchObject({
      isTryout: true,
      trialPrice: '0.99',
      presentPrice: '49.99',
      sign: 'US$',
      integer: '0',
      decimal: '99',
      trialHours: 24,
      geolocations: 30,
      trialText: 'US$0.99',
      monthlyText: 'US$49.99',
    });
  });

  // The first-order discount (who gets it, once, concurrently): tests/first-order-discount.test.ts.

  it('an unknown plan answers 404, for the price and for an order', async () => {
    const plan = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/portal/priceSetup?plan=${plan}`)).status).toBe(404);
    const order = await placeOrder({ email: unique('plan'), plan });
    expect(order.res.status).toBe(404);
  });

  it('an order without the express request to start at once is refused, localized, and nothing is kept', async () => {
    // The consent SMS goes out as soon as an order is paid: an order without `startNow` would be served at once and
    // still be withdrawn in full (Directive 2011/83/EU Art. 7(3), 14(3); lib/contracts/orders.ts `orderBody`).
    const absent = unique('start-absent');
    const res = await call('POST', '/portal/order', {
      body: { email: absent, phone: nextPhone(), requesterName: 'Anna (your sister)', terms: true },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ field: 'startNow', msg: expect.stringContaining('starts at once') });
    const db = await getDb();
    expect(await db.select().from(orders).where(eq(orders.email, absent))).toHaveLength(0);
    const msgs = { en: 'starts at once', es: 'empieza de inmediato', id: 'langsung dimulai' } as const;
    for (const [lang, msg] of Object.entries(msgs)) {
      await expectOrderRefused(
        { email: unique(`start-false-${lang}`), startNow: false },
        lang,
        'startNow',
        expect.stringContaining(msg) as unknown as string,
      );
    }
  });

  it('the client cannot set the price', async () => {
    const { body } = await placeOrder({ email: unique('price'), amountMinor: 1, price: 0, amount: '0.01' });
    expect(body.obj.amountMinor).toBe(99);
  });
});

describe('orders and the sandbox test cards (Stripe test-card semantics)', () => {
  it('the same idempotency key makes one order (a double click)', async () => {
    const email = unique('double');
    const phone = nextPhone();
    const key = 'key-' + Math.random().toString(36).slice(2);
    const [a, b] = await Promise.all([
      placeOrder({ email, phone, idempotencyKey: key }),
      placeOrder({ email, phone, idempotencyKey: key }),
    ]);
    expect(a.body.obj.code).toBe(b.body.obj.code);
    const rows = await (await getDb()).select().from(orders).where(eq(orders.idempotencyKey, key));
    expect(rows).toHaveLength(1);
    const reused = await placeOrder({ email: unique('other'), phone, idempotencyKey: key });
    expect(reused.res.status).toBe(409);
  });

  it('wallet orders lead to the wallet page; card orders to the card checkout', async () => {
    const wallet = await placeOrder({ email: unique('wallet'), method: 'wallet' });
    expect(wallet.body.obj.next).toMatch(/^\/checkout\/wallet\/\?order=/);
    const card = await placeOrder({ email: unique('card'), method: 'card' });
    expect(card.body.obj.next).toMatch(/^\/checkout\/\?order=/);
  });

  it('4242 pays: account, trialing subscription, payment row, order.paid event, one credentials e-mail', async () => {
    const email = unique('paid');
    const { order, sub } = await subscribe(email);
    expect(order.status).toBe('paid');
    expect(order.cardLast4).toBe('4242');
    expect(order.sandboxRenewal).toBe('succeeds');
    expect(sub.status).toBe('trialing');
    expect(sub.currentPeriodEnd.getTime() - order.paidAt!.getTime()).toBeCloseTo(24 * 3600_000, -4);
    const db = await getDb();
    expect(await db.select().from(payments).where(eq(payments.orderId, order.id))).toMatchObject([
      { kind: 'initial', status: 'succeeded', amountMinor: 99 },
    ]);
    const events = await db.execute(`select type from domain_events where aggregate_id = '${order.id}'`);
    expect(events.rows).toEqual([{ type: 'order.paid' }]);
    expect(await emailsTo(email, 'order-credentials')).toHaveLength(1);
  });

  it('4000…0002 declines: order failed, can be retried, no account', async () => {
    const email = unique('declined');
    const { body } = await placeOrder({ email });
    const res = await payCard(body.obj.code, '4000000000000002');
    expect(res.status).toBe(402);
    const json = await res.json();
    expect(json.msg).toMatch(/^Transaction has been declined/);
    expect(json.status).toBe('failed');
    expect(await (await getDb()).select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(200);
  });

  it('4000…9995 insufficient funds at registration cancels the order: no retry, no account', async () => {
    const email = unique('funds');
    const { body } = await placeOrder({ email });
    const res = await payCard(body.obj.code, '4000000000009995');
    expect(res.status).toBe(402);
    expect((await res.json()).status).toBe('canceled');
    expect((await payCard(body.obj.code, '4242424242424242')).status).toBe(409);
    expect(await (await getDb()).select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('4000…0341 pays now and marks later renewals to fail', async () => {
    const { order } = await subscribe(unique('later'), '4000000000000341');
    expect(order.status).toBe('paid');
    expect(order.sandboxRenewal).toBe('fails');
  });

  it('4000 0027 6000 3184 asks for 3-D Secure: completing pays, abandoning declines', async () => {
    const ok = await placeOrder({ email: unique('3ds-ok') });
    const first = await payCard(ok.body.obj.code, '4000002760003184');
    expect((await first.json()).obj.status).toBe('requires_action');
    const status = await call('GET', `/portal/user/checkRegister/${ok.body.obj.code}`);
    expect((await status.json()).obj).toMatchObject({ status: 'pending', pendingAction: '3ds' });
    const done = await call('POST', `/portal/order/${ok.body.obj.code}/sandbox3ds`, { body: { approve: true } });
    expect((await done.json()).obj.status).toBe('paid');

    const bad = await placeOrder({ email: unique('3ds-bad') });
    await payCard(bad.body.obj.code, '4000002760003184');
    const failed = await call('POST', `/portal/order/${bad.body.obj.code}/sandbox3ds`, { body: { approve: false } });
    expect(failed.status).toBe(402);
    expect((await failed.json()).reason).toBe('authentication_failed');
    // No 3-D Secure step is pending any more.
    const again = await call('POST', `/portal/order/${bad.body.obj.code}/sandbox3ds`, { body: { approve: true } });
    expect(again.status).toBe(409);
  });

  it('the sandbox wallet: approved pays and signs in, cancelled cancels the order', async () => {
    const yes = await placeOrder({ email: unique('wallet-yes'), method: 'wallet' });
    const approved = await call('POST', `/portal/order/${yes.body.obj.code}/sandboxWallet`, {
      body: { approve: true },
    });
    expect(approved.status).toBe(200);
    expect(approved.headers.get('set-cookie')).toMatch(/token=/);

    const no = await placeOrder({ email: unique('wallet-no'), method: 'wallet' });
    const canceled = await call('POST', `/portal/order/${no.body.obj.code}/sandboxWallet`, {
      body: { approve: false },
    });
    expect(canceled.status).toBe(402);
    expect((await canceled.json()).msg).toBe('The wallet payment was cancelled. Nothing was charged.');
    const status = await call('GET', `/portal/user/checkRegister/${no.body.obj.code}`);
    expect((await status.json()).obj.status).toBe('canceled');
    // A card order cannot be paid through the wallet.
    const card = await placeOrder({ email: unique('wallet-card') });
    expect(
      (await call('POST', `/portal/order/${card.body.obj.code}/sandboxWallet`, { body: { approve: true } })).status,
    ).toBe(409);
  });
});

describe('transaction info for the help chat (docs/rules.md#api GET /other/user/property)', () => {
  it("answers the caller's own transaction facts, and 401 to a visitor", async () => {
    const email = unique('property');
    const { cookie, code } = await subscribe(email);
    const res = await call('GET', '/other/user/property', { headers: { cookie } });
    expect((await res.json()).obj).toMatchObject({
      email,
      paymentCount: 1,
      subscriptionStatus: 'trialing',
      lastOrder: code,
      lastAmount: 'US$0.99',
    });
    expect((await call('GET', '/other/user/property')).status).toBe(401);
  });
});
