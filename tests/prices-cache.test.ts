import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { priceSetups } from '@/server/db/schema';
import { formatMoney, minorDigits } from '@/server/services/money';
import {
  displayedPricePlan,
  displayedPriceSetup,
  PRICE_CACHE_MS,
  pricePlan,
  priceSetup,
} from '@/server/services/billing';
import { API, app, clientHeaders } from './support/api';

const created: string[] = [];

/** A new price setup row with these prices (minor units); removed after this file, so later tests see the seeded one. */
async function newSetup(currency: string, trialPriceMinor: number, monthlyPriceMinor: number) {
  const db = await getDb();
  const [row] = await db.insert(priceSetups).values({ currency, trialPriceMinor, monthlyPriceMinor }).returning();
  created.push(row.id);
  return row;
}

// A setup left in EUR would become the Spanish pages' price (LANG_CURRENCY) in the test files that run after this one.
afterAll(async () => {
  const db = await getDb();
  for (const id of created) await db.delete(priceSetups).where(eq(priceSetups.id, id));
});

describe('the displayed price setup is reused, what is charged is read fresh', () => {
  it('shows a price changed in the database once PRICE_CACHE_MS has passed; priceSetup() sees it at once', async () => {
    const db = await getDb();
    const row = await newSetup('EUR', 149, 2999);
    const t0 = Date.now();
    expect((await displayedPriceSetup(db, row.id, t0)).trialPriceMinor).toBe(149);

    await db.update(priceSetups).set({ trialPriceMinor: 199 }).where(eq(priceSetups.id, row.id));
    expect((await displayedPriceSetup(db, row.id, t0 + 1000)).trialPriceMinor).toBe(149);
    expect((await priceSetup(db, row.id)).trialPriceMinor).toBe(199);
    expect((await displayedPriceSetup(db, row.id, t0 + PRICE_CACHE_MS + 1)).trialPriceMinor).toBe(199);
  });

  it('computes the displayed plan once per language and drops it with the cached row', async () => {
    const db = await getDb();
    const row = await newSetup('USD', 99, 4999);
    const t0 = Date.now();
    const en = await displayedPricePlan(db, row.id, 'en', t0);
    const es = await displayedPricePlan(db, row.id, 'es', t0);
    expect(en).toMatchObject({ trialPriceMinor: 99, trialText: 'US$0.99', monthlyText: 'US$49.99' });
    expect(es).toEqual(pricePlan(row, 'es'));
    expect(es.trialText).not.toBe(en.trialText);
    expect(await displayedPricePlan(db, row.id, 'en', t0 + 1000)).toBe(en);

    await db.update(priceSetups).set({ trialPriceMinor: 149 }).where(eq(priceSetups.id, row.id));
    expect((await displayedPricePlan(db, row.id, 'en', t0 + 1000)).trialPriceMinor).toBe(99);
    const later = await displayedPricePlan(db, row.id, 'en', t0 + PRICE_CACHE_MS + 1);
    expect(later).toMatchObject({ trialPriceMinor: 149, trialText: 'US$1.49' });
  });

  it('answers the plan in the language the client asks for', async () => {
    const row = await newSetup('EUR', 149, 2999);
    const texts: string[] = [];
    for (const lang of ['en', 'es', 'en']) {
      const res = await app.request(`${API}/portal/priceSetup?plan=${row.id}`, {
        headers: { ...clientHeaders, 'accept-language': lang },
      });
      expect(res.status).toBe(200);
      texts.push((await res.json()).obj.monthlyText);
    }
    expect(texts).toEqual([pricePlan(row, 'en').monthlyText, pricePlan(row, 'es').monthlyText, texts[0]]);
    expect(texts[0]).not.toBe(texts[1]);
  });

  it("answers 30 requests at once, in three languages, each with its own language's plan", async () => {
    const row = await newSetup('EUR', 149, 2999);
    const langs = Array.from({ length: 30 }, (_, i) => ['en', 'es', 'id'][i % 3]);
    const answers = await Promise.all(
      langs.map(async (lang) => {
        const res = await app.request(`${API}/portal/priceSetup?plan=${row.id}`, {
          headers: { ...clientHeaders, 'accept-language': lang },
        });
        return { status: res.status, plan: (await res.json()).obj };
      }),
    );
    answers.forEach(({ status, plan }, i) => {
      expect(status).toBe(200);
      expect(plan).toEqual(JSON.parse(JSON.stringify(pricePlan(row, langs[i]))));
    });
  });

  it('answers 404 for an unknown plan every time (misses are not cached)', async () => {
    const url = `${API}/portal/priceSetup?plan=00000000-0000-4000-8000-000000000001`;
    for (let i = 0; i < 2; i++) {
      const res = await app.request(url, { headers: clientHeaders });
      expect(res.status).toBe(404);
    }
  });
});

describe('cached currency formatting gives the same text as a fresh formatter', () => {
  // English is formatted as World English (en-001), which writes US$ rather than a bare $.
  const fresh = (minor: number, currency: string, locale: string, digits: number) =>
    new Intl.NumberFormat(locale === 'en' ? 'en-001' : locale, { style: 'currency', currency }).format(
      minor / 10 ** digits,
    );

  it.each([
    [99, 'USD', 'en', 2],
    [99, 'USD', 'es', 2],
    [1500, 'JPY', 'en', 0],
    [4999, 'EUR', 'id', 2],
    [1234, 'KWD', 'es', 3],
  ])('%i %s in %s', (minor, currency, locale, digits) => {
    expect(minorDigits(currency)).toBe(digits);
    for (let i = 0; i < 3; i++)
      expect(formatMoney(minor, currency, locale)).toBe(fresh(minor, currency, locale, digits));
  });

  it('formats the plan in the asked locale, not the first one cached', () => {
    const plan = {
      id: 'x',
      currency: 'USD',
      trialPriceMinor: 99,
      monthlyPriceMinor: 4999,
      geolocationsPerPeriod: 30,
      trialHours: 24,
      isDefault: true,
      offerPercentOff: 50,
      createdAt: new Date(),
    };
    expect(pricePlan(plan, 'en')).toMatchObject({ sign: 'US$', trialText: 'US$0.99', monthlyText: 'US$49.99' });
    expect(pricePlan(plan, 'es')).toMatchObject({
      trialText: fresh(99, 'USD', 'es', 2),
      monthlyText: fresh(4999, 'USD', 'es', 2),
    });
    expect(pricePlan(plan, 'es').trialText).not.toBe('US$0.99');
  });
});
