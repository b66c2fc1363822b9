import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { consentReceiptsSchema } from '@/lib/contracts/billing';
import { decimalAmount } from '@/lib/money';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { call } from './support/accounts';
import { payCard, placeOrder } from './support/billing';

// The buyer's receipt of what they agreed to at Pay (GET /admin/user/consentReceipts, its file, the page
// /dashboard/billing/consent/): the order's reference, never an internal id; prices as decimal money.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A paid order of a new buyer in `locale`: its row and the buyer's session cookie. */
async function paidOrder(locale = 'en') {
  const { body } = await placeOrder(
    { email: `receipt-${randomUUID()}@example.com`, startNow: true, locale },
    { 'x-peer-ip': '81.2.69.142', 'user-agent': 'BuyerPhone/2.0', 'accept-language': locale },
  );
  const pay = await payCard(body.obj.code, '4242424242424242');
  const cookie = `token=${/(?:^|, )token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1]}`;
  const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, body.obj.code));
  return { order, cookie };
}

describe('money as a decimal string for files (lib/money.ts decimalAmount)', () => {
  it("writes the currency's own decimals without floating-point rounding", () => {
    expect(decimalAmount(50, 'USD')).toBe('0.50');
    expect(decimalAmount(1999, 'EUR')).toBe('19.99');
    expect(decimalAmount(5, 'JPY')).toBe('5');
    expect(decimalAmount(-5, 'USD')).toBe('-0.05');
    expect(decimalAmount(1234567, 'KWD')).toBe('1234.567');
    expect(decimalAmount(900719925474099, 'USD')).toBe('9007199254740.99');
  });
});

describe("the buyer's consent receipts", () => {
  it('name the order by its reference, give prices as money and the terms with their version; no internal id', async () => {
    const { order, cookie } = await paidOrder();
    const res = await call('GET', '/admin/user/consentReceipts', { headers: { cookie } });
    expect(res.status).toBe(200);
    const text = await res.text();
    // The e-mail is the test's own (random); nothing else may carry an id: not the order's, nor the record's.
    expect(text.replace(/receipt-[^"]+@example\.com/, '')).not.toMatch(UUID);
    expect(text).not.toContain(order.id);
    const [receipt, ...others] = consentReceiptsSchema.parse(JSON.parse(text).obj);
    expect(others).toHaveLength(0);
    expect(receipt.orderReference).toBe(order.reference);
    expect(receipt.trialPrice).toEqual({
      amount: decimalAmount(order.amountMinor, order.currency),
      currency: order.currency,
    });
    expect(receipt.trialPrice.amount).toMatch(/^\d+\.\d\d$/);
    expect(receipt.monthlyPrice.amount).toMatch(/^\d+\.\d\d$/);
    expect(receipt.terms.version).toMatch(/^terms-of-use@[0-9a-f]{12}$/);
    expect(receipt.terms.text.split('\n')[0]).toBe(
      'I am 18 or older and accept the terms of use and the privacy policy',
    );
    expect(receipt).toMatchObject({ startNow: true, ip: '81.2.69.142', userAgent: 'BuyerPhone/2.0', locale: 'en' });
    expect(new Date(receipt.agreedAt).toISOString()).toBe(receipt.agreedAt);
  });

  it('download as the same records in a JSON file without the envelope; only the caller’s own; 401 signed out', async () => {
    const mine = await paidOrder('es');
    const other = await paidOrder();
    const page = await call('GET', '/admin/user/consentReceipts', { headers: { cookie: mine.cookie } });
    const file = await call('GET', '/admin/user/consentReceipts/file', { headers: { cookie: mine.cookie } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="consent-receipts.json"');
    expect(file.headers.get('cache-control')).toBe('no-store');
    const records = await file.json();
    expect(Array.isArray(records)).toBe(true);
    expect(records).toEqual((await page.json()).obj);
    expect(records.map((r: { orderReference: string }) => r.orderReference)).toEqual([mine.order.reference]);
    expect(records[0].locale).toBe('es');
    expect(JSON.stringify(records)).not.toContain(other.order.reference);

    expect((await call('GET', '/admin/user/consentReceipts')).status).toBe(401);
    expect((await call('GET', '/admin/user/consentReceipts/file')).status).toBe(401);
  });
});
