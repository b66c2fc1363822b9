import 'server-only';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { PricePlan } from '../../../lib/contracts/orders';
import type { Db, Tx } from '../../db/client';
import { priceSetups, type PriceOffer, type PriceSetup } from '../../db/schema';
import { notFound } from '../../errors';
import { currencyFormat, formatMoney, minorDigits } from '../money';

// What the service costs (docs/rules.md "Entities", the price plan): the price setups in minor units with an ISO 4217
// currency (table `price_setups`; the client never sends a price), the one a page's language shows, the display cache,
// and the plan the price card and the pay step show. The first-order discount is ./first-order-discount.ts.

/**
 * The currency a page language's visitors pay in when a price setup exists in it (ISO 4217): Spanish pages (Spain) →
 * EUR, Indonesian → IDR. English is served worldwide and has none. Without such a setup the default one (USD) is
 * shown, and formatMoney writes it unmistakably (US$).
 */
export const LANG_CURRENCY: Readonly<Record<string, string>> = { es: 'EUR', id: 'IDR' };

/** The preferred currency of `lang` (`LANG_CURRENCY`), or undefined. */
export function preferredCurrency(lang: string): string | undefined {
  return LANG_CURRENCY[lang];
}

/**
 * A price setup by id (an unknown id: `notFound`), or else the one to show: a setup in `currency` (the visitor's,
 * `preferredCurrency`) when one exists, the default one otherwise (seeded by drizzle/0001; none is a setup error).
 * Prices never come from the client.
 */
export async function priceSetup(db: Db | Tx, id?: string, currency?: string): Promise<PriceSetup> {
  // A column expression (a constant cannot order rows): true for setups in the preferred currency.
  const preferred = sql`(${priceSetups.currency} = ${currency ?? ''})`;
  const [price] = id
    ? await db.select().from(priceSetups).where(eq(priceSetups.id, id)).limit(1)
    : await db
        .select()
        .from(priceSetups)
        .orderBy(desc(preferred), desc(priceSetups.isDefault), asc(priceSetups.createdAt))
        .limit(1);
  if (price) return price;
  if (id) throw notFound();
  throw new Error('no price_setups row: run the migrations');
}

/** How long a price setup read for display is reused (ms). */
export const PRICE_CACHE_MS = 60_000;
const cached = new Map<string, { price: PriceSetup; until: number }>();

/**
 * priceSetup() for display (`GET /portal/priceSetup`, read on every landing page view): a found setup is reused for
 * PRICE_CACHE_MS, so a price changed in the database shows within a minute. Unknown ids are not cached (404 each
 * time). Orders, offers and payments keep reading priceSetup() fresh: what is charged never comes from this cache.
 */
export async function displayedPriceSetup(
  db: Db,
  id?: string,
  now = Date.now(),
  currency?: string,
): Promise<PriceSetup> {
  const key = `${id ?? ''}|${currency ?? ''}`;
  const hit = cached.get(key);
  if (hit && hit.until > now) return hit.price;
  const price = await priceSetup(db, id, currency);
  if (cached.size >= 100) cached.clear();
  cached.set(key, { price, until: now + PRICE_CACHE_MS });
  return price;
}

/** Plans already computed for a displayed setup row, by language (the row is reused for PRICE_CACHE_MS). */
const displayedPlans = new WeakMap<PriceSetup, Map<string, PricePlan>>();

/**
 * The plan of `GET /portal/priceSetup` (docs/rules.md#entities): pricePlan() of displayedPriceSetup() in `lang`, computed once per
 * cached setup row and language (its formatting was the route's largest own cost) and dropped with the
 * row. `now` in ms since the epoch. Same errors as displayedPriceSetup() (unknown id: `notFound`). Callers must not
 * change the object returned.
 */
export async function displayedPricePlan(
  db: Db,
  id: string | undefined,
  lang: string,
  now = Date.now(),
): Promise<PricePlan> {
  const price = await displayedPriceSetup(db, id, now, preferredCurrency(lang));
  let byLang = displayedPlans.get(price);
  if (!byLang) displayedPlans.set(price, (byLang = new Map()));
  let plan = byLang.get(lang);
  if (!plan) byLang.set(lang, (plan = pricePlan(price, lang)));
  return plan;
}

/** Minor units per major unit of `currency` (ISO 4217 exponent), e.g. 100 for USD, 1 for JPY. */
function minorFactor(currency: string): number {
  return 10 ** minorDigits(currency);
}

/** The trial price with `percentOff` taken off, rounded to the nearest minor unit, never below 1. */
export function discounted(trialMinor: number, percentOff: number): number {
  return Math.max(1, Math.round((trialMinor * (100 - percentOff)) / 100));
}

/**
 * The price plan of docs/rules.md#entities for `price` in `lang`: isTryout, trialPrice and presentPrice (major units as strings),
 * the currency sign, the integer and decimal parts of the price shown (the trial price when there is a trial), and
 * the formatted texts for the pay page. `offer` (still running) replaces the trial price by the discounted one.
 */
export function pricePlan(price: PriceSetup, lang: string, offer?: PriceOffer | null): PricePlan {
  const factor = minorFactor(price.currency);
  const trialMinor = offer ? discounted(price.trialPriceMinor, offer.percentOff) : price.trialPriceMinor;
  const isTryout = price.trialHours > 0;
  const shownMinor = isTryout ? trialMinor : price.monthlyPriceMinor;
  const sign =
    currencyFormat(lang, price.currency)
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? price.currency;
  const decimals = Math.log10(factor);
  return {
    id: price.id,
    currency: price.currency,
    isTryout,
    trialPrice: (trialMinor / factor).toFixed(decimals),
    presentPrice: (price.monthlyPriceMinor / factor).toFixed(decimals),
    sign,
    integer: String(Math.floor(shownMinor / factor)),
    decimal: decimals ? String(shownMinor % factor).padStart(decimals, '0') : '',
    trialPriceMinor: trialMinor,
    listTrialPriceMinor: price.trialPriceMinor,
    monthlyPriceMinor: price.monthlyPriceMinor,
    trialHours: price.trialHours,
    geolocations: price.geolocationsPerPeriod,
    trialText: formatMoney(trialMinor, price.currency, lang),
    listTrialText: formatMoney(price.trialPriceMinor, price.currency, lang),
    monthlyText: formatMoney(price.monthlyPriceMinor, price.currency, lang),
    offerPercentOff: price.offerPercentOff,
  };
}
