import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { orders } from '@/server/db/schema';
import { CLAIM_GRACE_MS, holding, OTHER_BROWSER_HOLD_MS, STRIPE_SESSION_MS } from '@/server/services/billing';
import { call } from './support/accounts';
import { nextPhone, payCard, placeOrder } from './support/billing';

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;

/** A browser: the `offer_browser` cookie it was given, sent back on every call. */
type Browser = { cookie: string };

/** `POST /portal/priceSetup/offer` from `browser` (a new browser without one); keeps the cookie the answer sets. */
async function askOffer(email: string, phone: string, browser?: Browser) {
  const res = await call('POST', '/portal/priceSetup/offer', {
    body: { email, phone },
    headers: browser?.cookie ? { cookie: browser.cookie } : {},
  });
  const set = /offer_browser=([A-Za-z0-9_-]+)/.exec(res.headers.get('set-cookie') ?? '');
  const used: Browser = browser ?? { cookie: '' };
  if (set) used.cookie = `offer_browser=${set[1]}`;
  return { res, obj: (await res.json()).obj, browser: used };
}

/** Places the order the pay step would, naming the offer when one was given. */
function order(browser: Browser, email: string, phone: string, offer?: string) {
  return placeOrder({ email, phone, ...(offer ? { offer } : {}) }, { cookie: browser.cookie });
}

describe('the first-order discount: first order from this browser and this address, once', () => {
  it('is shown without an end time, sets the browser cookie, and states the rule in the API', async () => {
    const { res, obj, browser } = await askOffer(unique('shown'), nextPhone());
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/offer_browser=[A-Za-z0-9_-]{22}; Max-Age=31536000; Path=\/api_f\/;/);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    expect(browser.cookie).toMatch(/^offer_browser=/);
    expect(obj.offer).toMatchObject({ percentOff: 50, expiresAt: null, rule: 'first_order' });
    expect(obj.firstOrder).toBe('eligible');
    expect(obj.plan).toMatchObject({ trialPriceMinor: 50, listTrialPriceMinor: 99, trialText: 'US$0.50' });
  });

  it('gives the discount to the first paid order of a browser; the next e-mail from that browser pays the regular price', async () => {
    const phone = nextPhone();
    const first = unique('first');
    const shown = await askOffer(first, phone);
    const paidOrder = await order(shown.browser, first, phone, shown.obj.offer.id);
    expect(paidOrder.res.status).toBe(201);
    expect(paidOrder.body.obj.amountMinor).toBe(50);
    expect((await payCard(paidOrder.body.obj.code, '4242424242424242')).status).toBe(200);

    const second = unique('second');
    const again = await askOffer(second, phone, shown.browser);
    expect(again.obj).toMatchObject({ offer: null, firstOrder: 'used' });
    expect(again.obj.plan.trialPriceMinor).toBe(99);
    // A client that asks for the discount anyway (an offer id shown earlier to this address) is refused with the price.
    const earlier = await askOffer(second, phone, { cookie: '' });
    const refused = await order(shown.browser, second, phone, earlier.obj.offer.id);
    expect(refused.res.status).toBe(409);
    expect(refused.body).toMatchObject({
      reason: 'discount_used',
      msg: 'The first-order discount has already gone to another order from this browser or this e-mail address. The trial price is US$0.99.',
    });
    const plain = await order(shown.browser, second, phone);
    expect(plain.body.obj.amountMinor).toBe(99);
  });

  it('is once per address too: another browser with an address whose discounted order is still open pays the regular price', async () => {
    const phone = nextPhone();
    const email = unique('address');
    const a = await askOffer(email, phone);
    const held = await order(a.browser, email, phone, a.obj.offer.id);
    expect(held.body.obj.amountMinor).toBe(50);
    const b = await askOffer(email, phone);
    expect(b.browser.cookie).not.toBe(a.browser.cookie);
    expect(b.obj).toMatchObject({ offer: null, firstOrder: 'used' });
    expect((await order(b.browser, email, phone, a.obj.offer.id)).res.status).toBe(409);
    // After paying, the address has an account: not a first order any more, from any browser.
    expect((await payCard(held.body.obj.code, '4242424242424242')).status).toBe(200);
    expect((await askOffer(email, phone)).obj).toMatchObject({ offer: null, firstOrder: 'account' });
  });

  it('moves to a newer order from the same browser when the earlier one was not paid, and the earlier one can no longer be paid', async () => {
    const phone = nextPhone();
    const email = unique('again');
    const shown = await askOffer(email, phone);
    const abandoned = await order(shown.browser, email, phone, shown.obj.offer.id);
    expect(abandoned.body.obj.amountMinor).toBe(50);
    // The buyer comes back (a new pay step, a new idempotency key) and still sees the discount.
    expect((await askOffer(email, phone, shown.browser)).obj.firstOrder).toBe('eligible');
    const newer = await order(shown.browser, email, phone, shown.obj.offer.id);
    expect(newer.res.status).toBe(201);
    expect(newer.body.obj.amountMinor).toBe(50);
    const db = await getDb();
    const [old] = await db.select().from(orders).where(eq(orders.code, abandoned.body.obj.code));
    expect(old).toMatchObject({ status: 'canceled', failureCode: 'superseded' });
    expect((await payCard(abandoned.body.obj.code, '4242424242424242')).status).not.toBe(200);
    expect((await payCard(newer.body.obj.code, '4242424242424242')).status).toBe(200);
  });

  it('20 first orders at once from one browser: exactly one can be paid at the discount', async () => {
    const phone = nextPhone();
    const shown = await askOffer(unique('burst0'), phone);
    const emails = Array.from({ length: 20 }, (_, i) => unique(`burst${i}`));
    const offers = await Promise.all(emails.map((e) => askOffer(e, phone, shown.browser)));
    expect(offers.every((o) => o.obj.firstOrder === 'eligible')).toBe(true);
    const placed = await Promise.all(emails.map((e, i) => order(shown.browser, e, phone, offers[i].obj.offer.id)));
    expect(placed.every((p) => p.res.status === 201 || p.res.status === 409)).toBe(true);
    const made = placed.filter((p) => p.res.status === 201).map((p) => p.body.obj.code as string);
    expect(made.length).toBeGreaterThanOrEqual(1);
    // Every order is then paid, all at once.
    await Promise.all(made.map((code) => payCard(code, '4242424242424242')));
    const db = await getDb();
    const rows = await db.select().from(orders).where(inArray(orders.code, made));
    const paidAtDiscount = rows.filter((r) => r.status === 'paid' && r.amountMinor === 50);
    expect(paidAtDiscount).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'paid' && r.amountMinor !== 99)).toHaveLength(1);
  });

  it('a signed-in subscriber is not offered it (not a first order)', async () => {
    const phone = nextPhone();
    const email = unique('member');
    const shown = await askOffer(email, phone);
    const first = await order(shown.browser, email, phone, shown.obj.offer.id);
    const pay = await payCard(first.body.obj.code, '4242424242424242');
    const token = /token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1];
    const res = await call('POST', '/portal/priceSetup/offer', {
      body: { email, phone },
      headers: { cookie: `token=${token}` },
    });
    expect((await res.json()).obj).toMatchObject({ offer: null, firstOrder: 'account' });
  });
});

describe('holding: when a claim gives way', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const base = { browserKey: 'b1', claimedAt: ago(1000), createdAt: ago(1000), provider: 'sandbox' };
  it.each([
    ['paid', { status: 'paid' }, 'b2', 'used'],
    ['refunded', { status: 'refunded' }, 'b1', 'used'],
    ['cancelled', { status: 'canceled' }, 'b2', 'free'],
    ['unpaid, same browser', { status: 'pending' }, 'b1', 'supersede'],
    ['declined, same browser', { status: 'failed' }, 'b1', 'supersede'],
    ['unpaid, other browser, recent', { status: 'pending' }, 'b2', 'held'],
    ['unpaid, other browser, old', { status: 'pending', createdAt: ago(OTHER_BROWSER_HOLD_MS + 1) }, 'b2', 'supersede'],
    ['Stripe, open session', { status: 'pending', provider: 'stripe' }, 'b1', 'held'],
    [
      'Stripe, expired session',
      { status: 'pending', provider: 'stripe', createdAt: ago(STRIPE_SESSION_MS + 1) },
      'b1',
      'free',
    ],
    ['order being written', { status: null, createdAt: null, provider: null }, 'b1', 'held'],
    [
      'order never written',
      { status: null, createdAt: null, provider: null, claimedAt: ago(CLAIM_GRACE_MS + 1) },
      'b1',
      'free',
    ],
  ] as const)('%s → %s', (_, holder, browser, expected) => {
    expect(holding({ ...base, ...holder }, browser, now)).toBe(expected);
  });
});
