import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { call } from './support/accounts';
import { placeOrder } from './support/billing';
import { FakeStripe } from './support/fake-stripe';

// Stripe's Embedded Checkout as the checkout page reaches it, through the API, against the fake Stripe API (settings
// are read on first use, after this). The webhooks and the return page are tests/webhook-stripe.test.ts.
const PORT = vi.hoisted(() => {
  const port = 44000 + (process.pid % 1000);
  process.env.PAYMENT_PROVIDER = 'stripe';
  process.env.STRIPE_SECRET_KEY = 'sk_test_fake123';
  process.env.STRIPE_WEBHOOK_SECRET = 'whsec_fake123';
  process.env.STRIPE_PUBLISHABLE_KEY = 'pk_test_fake123';
  process.env.STRIPE_API_URL = `http://127.0.0.1:${port}`;
  return port;
});
const fake = new FakeStripe(PORT);
const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

beforeAll(() => fake.start());
afterAll(() => fake.stop());

/** An order placed with the Stripe provider, and its Checkout Session id. */
async function stripeOrder(email = unique('stripe')) {
  const { body } = await placeOrder({ email });
  const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, body.obj.code));
  return { email, code: body.obj.code as string, next: body.obj.next as string, sessionId: order.providerSessionId! };
}

describe("the checkout page's embedded Stripe checkout (GET /portal/order/{code}/embeddedCheckout)", () => {
  const embedded = (code: string, headers: Record<string, string> = {}) =>
    call('GET', `/portal/order/${code}/embeddedCheckout`, { headers });

  it("gives a pending order's client secret and the publishable key, asking Stripe for the session", async () => {
    const { code, sessionId } = await stripeOrder();
    const res = await embedded(code);
    expect(res.status).toBe(200);
    expect((await res.json()).obj).toEqual({
      clientSecret: `${sessionId}_secret_fake`,
      publishableKey: 'pk_test_fake123',
    });
  });

  it('answers 409 not_payable, in the caller’s language, once the order is paid or its session closed', async () => {
    const paid = await stripeOrder();
    fake.subscription(`sub_embedded_${paid.code}`, 'trialing', Date.now() + 86_400_000);
    fake.pay(paid.sessionId, `sub_embedded_${paid.code}`);
    await call('GET', `/portal/user/checkRegister/${paid.code}`); // the return page completes the order
    const afterPay = await embedded(paid.code, { 'accept-language': 'es' });
    expect(afterPay.status).toBe(409);
    const body = await afterPay.json();
    expect(body.reason).toBe('not_payable');
    expect(body.msg).toBe('Este pedido ya no se puede pagar.');

    const expired = await stripeOrder();
    fake.sessions.get(expired.sessionId)!.status = 'expired';
    expect((await embedded(expired.code)).status).toBe(409);
  });

  it('a repeated order (same idempotency key) gets the same checkout page without asking Stripe again', async () => {
    const email = unique('replay');
    const phone = '+14155550181';
    const key = `key-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const first = await placeOrder({ email, phone, idempotencyKey: key });
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').length;
    const again = await placeOrder({ email, phone, idempotencyKey: key });
    expect(again.body.obj.code).toBe(first.body.obj.code);
    expect(again.body.obj.next).toBe(`/checkout/?order=${first.body.obj.code}`);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').length).toBe(created);

    // An order whose first attempt got no session (Stripe failed) gets one on the retry.
    fake.failMatching = { test: (path) => path === '/v1/checkout/sessions', times: 2 };
    const key2 = `${key}-2`;
    const email2 = unique('replay2');
    const failed = await placeOrder({ email: email2, phone: '+14155550182', idempotencyKey: key2 });
    expect(failed.res.status).toBe(500);
    fake.failMatching = null;
    const retried = await placeOrder({ email: email2, phone: '+14155550182', idempotencyKey: key2 });
    expect(retried.res.status).toBe(201);
    const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, retried.body.obj.code));
    expect(order.providerSessionId).toMatch(/^cs_test_/);
    expect(retried.body.obj.next).toBe(`/checkout/?order=${order.code}`);
  });

  it('answers 404 for an unknown order and for an order not paid through Stripe', async () => {
    expect((await embedded('no-such-order-code')).status).toBe(404);
    const { code } = await stripeOrder();
    await (await getDb()).update(orders).set({ provider: 'sandbox' }).where(eq(orders.code, code));
    expect((await embedded(code)).status).toBe(404);
  });
});
