import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders, subscriptionConsents } from '@/server/db/schema';
import { searchOrders } from '@/server/services/ops';
import { purgeSubscriptionConsents } from '@/server/services/billing';
import { call } from './support/accounts';
import { payCard, placeOrder } from './support/billing';

// Proof of consent to the subscription (docs/features.md "Payments and subscriptions"): the terms shown at Pay, kept append-only.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function recordsOf(orderCode: string) {
  const db = await getDb();
  const [order] = await db.select().from(orders).where(eq(orders.code, orderCode));
  return {
    order,
    records: await db.select().from(subscriptionConsents).where(eq(subscriptionConsents.orderId, order.id)),
  };
}

describe('proof of consent to the subscription', () => {
  it('is written when the order is made, with the exact terms shown, their hash and version, prices, address and agent', async () => {
    const email = `proof-${randomUUID()}@example.com`;
    const { res, body } = await placeOrder(
      { email, startNow: true },
      { 'x-peer-ip': '81.2.69.142', 'user-agent': 'BuyerPhone/2.0' },
    );
    expect(res.status).toBe(201);
    const { order, records } = await recordsOf(body.obj.code);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      userEmail: email,
      trialPriceMinor: order.amountMinor,
      currency: order.currency,
      startNow: true,
      ip: '81.2.69.142',
      userAgent: 'BuyerPhone/2.0',
    });
    expect(record.termsHash).toBe(sha256(record.termsText));
    expect(record.termsVersion).toMatch(/^terms-of-use@[0-9a-f]{12}$/);
    const lines = record.termsText.split('\n');
    expect(lines[0]).toBe('I am 18 or older and accept the terms of use and the privacy policy');
    expect(lines[1]).toMatch(/^US\$\d+\.\d\d for 24 hours, then US\$\d+\.\d\d per month\. It renews every month/);
    expect(record.termsText).toContain('By paying you ask us to start at once');
    expect(lines.at(-1)).toMatch(/^Pay US\$/);
  });

  it('is in the language of the page the buyer paid on', async () => {
    const { body } = await placeOrder(
      { email: `prueba-${randomUUID()}@example.com`, locale: 'es' },
      { 'accept-language': 'es' },
    );
    const { records } = await recordsOf(body.obj.code);
    expect(records[0].termsText.split('\n')[0]).toBe(
      'Tengo 18 años o más y acepto las condiciones de uso y la política de privacidad',
    );
  });

  it('says where a wallet payer sees the payment, as the pay step showed it, not a card statement', async () => {
    const card = await placeOrder({ email: `card-${randomUUID()}@example.com`, method: 'card' });
    const wallet = await placeOrder({ email: `wallet-${randomUUID()}@example.com`, method: 'wallet' });
    const cardText = (await recordsOf(card.body.obj.code)).records[0].termsText;
    const walletText = (await recordsOf(wallet.body.obj.code)).records[0].termsText;
    expect(cardText).toContain('Your card statement will show:');
    expect(walletText).toContain("Your wallet's activity will show the payment as:");
    expect(walletText).not.toContain('card statement');
  });

  it('is one record per order when a double click sends the same idempotency key 20 times at once', async () => {
    const email = `double-${randomUUID()}@example.com`;
    const key = randomUUID();
    const phone = '+14155559876';
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder({ email, phone, idempotencyKey: key })),
    );
    const codes = new Set(answers.map((a) => a.body.obj.code));
    expect(codes.size).toBe(1);
    const { records } = await recordsOf([...codes][0]);
    expect(records).toHaveLength(1);
  });

  it('the buyer downloads their own records, never another buyer’s; the console shows them', async () => {
    const email = `mine-${randomUUID()}@example.com`;
    const { body } = await placeOrder({ email });
    const pay = await payCard(body.obj.code, '4242424242424242');
    const cookie = `token=${/(?:^|, )token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1]}`;
    const other = await placeOrder({ email: `other-${randomUUID()}@example.com` });

    const res = await call('GET', '/admin/user/subscriptionConsents', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="subscription-consent-records\.json"$/,
    );
    const { obj } = await res.json();
    const { order } = await recordsOf(body.obj.code);
    const { order: otherOrder } = await recordsOf(other.body.obj.code);
    expect(obj.map((r: { orderId: string }) => r.orderId)).toEqual([order.id]);
    expect(obj[0].termsSha256).toBe(sha256(obj[0].termsText));
    expect(obj.some((r: { orderId: string }) => r.orderId === otherOrder.id)).toBe(false);

    expect((await call('GET', '/admin/user/subscriptionConsents')).status).toBe(401);

    const [found] = await searchOrders(await getDb(), order.reference);
    expect(found.subscriptionConsent).toMatchObject({ orderId: order.id, email });
  });

  it('cannot be changed, deleted or emptied; the retention purge deletes only records past their 3 years', async () => {
    const db = await getDb();
    const { body } = await placeOrder({ email: `kept-${randomUUID()}@example.com` });
    const { records } = await recordsOf(body.obj.code);
    const id = records[0].id;
    // Drizzle wraps the database's error; the trigger's message is its cause.
    const refusal = (query: Promise<unknown>) =>
      query.then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(await refusal(db.execute(sql`update subscription_consents set ip = null where id = ${id}`))).toMatch(
      /append-only \(UPDATE refused\)/,
    );
    expect(await refusal(db.execute(sql`delete from subscription_consents where id = ${id}`))).toMatch(
      /append-only \(DELETE refused\)/,
    );
    expect(await refusal(db.execute(sql`truncate subscription_consents`))).toMatch(/append-only \(TRUNCATE refused\)/);

    const old = randomUUID();
    await db.insert(subscriptionConsents).values({
      ...records[0],
      id: undefined,
      orderId: old,
      createdAt: new Date(Date.now() - 1100 * 86_400_000),
    });
    expect(await purgeSubscriptionConsents(db, 1095)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(subscriptionConsents).where(eq(subscriptionConsents.orderId, old))).toHaveLength(0);
    expect(await db.select().from(subscriptionConsents).where(eq(subscriptionConsents.id, id))).toHaveLength(1);
  });
});
