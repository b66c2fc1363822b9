import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { priceOffers, priceSetups, type PriceOffer, type PriceSetup } from '../db/schema';
import { env } from '../env';
import { notFound } from '../errors';
import { currencyFormat, formatMoney, minorDigits } from './money';
import { sha256 } from './tokens';

/**
 * A price setup by id (an unknown id: ApiError 404), or the default one (seeded by drizzle/0001; none is a setup
 * error). Prices never come from the client.
 */
export async function priceSetup(db: Db | Tx, id?: string): Promise<PriceSetup> {
  const [price] = id
    ? await db.select().from(priceSetups).where(eq(priceSetups.id, id)).limit(1)
    : await db.select().from(priceSetups).orderBy(desc(priceSetups.isDefault)).limit(1);
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
export async function displayedPriceSetup(db: Db, id?: string, now = Date.now()): Promise<PriceSetup> {
  const key = id ?? '';
  const hit = cached.get(key);
  if (hit && hit.until > now) return hit.price;
  const price = await priceSetup(db, id);
  if (cached.size >= 100) cached.clear();
  cached.set(key, { price, until: now + PRICE_CACHE_MS });
  return price;
}

/** The price plan of SPEC §3 as the API answers it (pricePlan()). */
export type PricePlan = ReturnType<typeof pricePlan>;

/** Plans already computed for a displayed setup row, by language (the row is reused for PRICE_CACHE_MS). */
const displayedPlans = new WeakMap<PriceSetup, Map<string, PricePlan>>();

/**
 * The plan of `GET /portal/priceSetup` (SPEC §3): pricePlan() of displayedPriceSetup() in `lang`, computed once per
 * cached setup row and language (its formatting was the route's largest own cost; issue 14 §3) and dropped with the
 * row. `now` in ms since the epoch. Same errors as displayedPriceSetup() (unknown id: ApiError 404). Callers must not
 * change the object returned.
 */
export async function displayedPricePlan(
  db: Db,
  id: string | undefined,
  lang: string,
  now = Date.now(),
): Promise<PricePlan> {
  const price = await displayedPriceSetup(db, id, now);
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
 * The price plan of SPEC §3 for `price` in `lang`: isTryout, trialPrice and presentPrice (major units as strings),
 * the currency sign, the integer and decimal parts of the price shown (the trial price when there is a trial), and
 * the formatted texts for the pay page. `offer` (still running) replaces the trial price by the discounted one.
 */
export function pricePlan(price: PriceSetup, lang: string, offer?: PriceOffer | null) {
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

/** One key per buyer (e-mail) and number (E.164): the same pair always gets the same offer. */
export function buyerKey(email: string, e164: string): string {
  return sha256(`${email.trim().toLowerCase()}|${e164}`);
}

/**
 * The discount offer for this buyer and number (SPEC §3 upRate, §4): created the first time it is shown, running for
 * OFFER_MINUTES from then. Asking again returns the same offer, so a reload never restarts the countdown. Null when
 * the price has no discount (offerPercentOff 0).
 */
export async function showOffer(db: Db, price: PriceSetup, key: string, now = new Date()): Promise<PriceOffer | null> {
  if (price.offerPercentOff <= 0) return null;
  await db
    .insert(priceOffers)
    .values({
      buyerKey: key,
      priceSetupId: price.id,
      percentOff: price.offerPercentOff,
      shownAt: now,
      expiresAt: new Date(now.getTime() + env().OFFER_MINUTES * 60_000),
    })
    .onConflictDoNothing();
  const [offer] = await db
    .select()
    .from(priceOffers)
    .where(and(eq(priceOffers.buyerKey, key), eq(priceOffers.priceSetupId, price.id)));
  return offer ?? null;
}

/** Offer `id` if it belongs to this buyer and price; null otherwise. */
export async function findOffer(db: Db | Tx, id: string, key: string, priceId: string): Promise<PriceOffer | null> {
  const [offer] = await db
    .select()
    .from(priceOffers)
    .where(and(eq(priceOffers.id, id), eq(priceOffers.buyerKey, key), eq(priceOffers.priceSetupId, priceId)));
  return offer ?? null;
}
