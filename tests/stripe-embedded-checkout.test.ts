// First: the Stripe provider against the fake Stripe API (its settings are set when this is imported).
import { fake, stripeOrder } from './support/stripe-mode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { call, uniqueEmail } from './support/accounts';
import { placeOrder } from './support/billing';

beforeAll(() => fake.start());
afterAll(() => fake.stop());

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
    const email = uniqueEmail('replay');
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
    const email2 = uniqueEmail('replay2');
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
