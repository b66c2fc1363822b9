import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PricePlan } from '../../../lib/contracts/orders';
import type { Db, Tx } from '../../db/client';
import {
  firstOrderDiscounts,
  orders,
  priceOffers,
  priceSetups,
  type PriceOffer,
  type PriceSetup,
} from '../../db/schema';
import { notFound } from '../../errors';
import { accountIdOf } from '../accounts';
import { currencyFormat, formatMoney, minorDigits } from '../money';
import { sha256 } from '../tokens';
import { applyOrderEvent } from './order-transitions';
import { PAID_STATES } from '../../../lib/order-machine';

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

/** One key per buyer (e-mail) and number (E.164): the same pair always gets the same offer. */
export function buyerKey(email: string, e164: string): string {
  return sha256(`${email.trim().toLowerCase()}|${e164}`);
}

/**
 * The first-order discount as shown to this buyer and number (docs/rules.md#entities upRate): recorded the first time it is shown
 * (`shownAt`); asking again returns the same row. It has no end time (`expiresAt` stays null: no countdown, see
 * `claimFirstOrderDiscount` for who gets it). Null when the price has no discount (offerPercentOff 0).
 */
export async function showOffer(db: Db, price: PriceSetup, key: string, now = new Date()): Promise<PriceOffer | null> {
  if (price.offerPercentOff <= 0) return null;
  await db
    .insert(priceOffers)
    .values({ buyerKey: key, priceSetupId: price.id, percentOff: price.offerPercentOff, shownAt: now, expiresAt: null })
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

/** A claim younger than this whose order row does not exist yet is an order being written (ms). */
export const CLAIM_GRACE_MS = 60_000;
/** An unpaid order from another browser keeps the discount this long before a newer order may take it (ms). */
export const OTHER_BROWSER_HOLD_MS = 60 * 60_000;
/**
 * An unpaid Stripe order keeps the discount this long (ms): Stripe Checkout Sessions expire 24 hours after creation
 * by default (Stripe API reference, Checkout Session `expires_at`), and we cannot void an open one here.
 */
export const STRIPE_SESSION_MS = 24 * 60 * 60_000;

/** What a claim's holder means for a new order: used (paid), held (may still be paid), free, or supersede it. */
export type Holding = 'used' | 'held' | 'free' | 'supersede';

/**
 * Whether the first-order discount held by `holder` can go to a new order from browser `browserKey` at `now`:
 * - `used`: the holder was paid (paid or refunded): the discount is spent for good;
 * - `free`: the holder was cancelled, or never written (claimed more than CLAIM_GRACE_MS ago, no order row), or is an
 *   unpaid Stripe order older than STRIPE_SESSION_MS (its Checkout Session has expired);
 * - `supersede`: an unpaid order of our own checkout (pending or failed), from the same browser, or from another one
 *   after OTHER_BROWSER_HOLD_MS: the new order takes the discount and the old one is cancelled (`superseded`);
 * - `held`: otherwise (an unpaid order that may still be paid at the discount).
 */
export function holding(
  holder: {
    status: string | null;
    provider: string | null;
    createdAt: Date | null;
    browserKey: string;
    claimedAt: Date;
  },
  browserKey: string,
  now: Date,
): Holding {
  const age = (t: Date) => now.getTime() - t.getTime();
  if (!holder.status || !holder.createdAt) return age(holder.claimedAt) > CLAIM_GRACE_MS ? 'free' : 'held';
  if ((PAID_STATES as readonly string[]).includes(holder.status)) return 'used';
  if (holder.status === 'canceled') return 'free';
  if (holder.provider === 'stripe') return age(holder.createdAt) > STRIPE_SESSION_MS ? 'free' : 'held';
  return holder.browserKey === browserKey || age(holder.createdAt) > OTHER_BROWSER_HOLD_MS ? 'supersede' : 'held';
}

/** The browser's key (SHA-256 of its `offer_browser` cookie value) as stored in `first_order_discounts`. */
export function browserKeyOf(cookieValue: string): string {
  return sha256(`browser|${cookieValue}`);
}

/** The two claim keys of a buyer: this browser and this e-mail address (trimmed, lower case). */
function claimKeys(browserKey: string, email: string): string[] {
  return [`browser:${browserKey}`, `email:${sha256(email.trim().toLowerCase())}`];
}

/** The claim rows of `keys` with their holder order's state; `lock` takes them FOR UPDATE (in a transaction). */
async function claimRows(db: Db | Tx, keys: string[], lock: boolean) {
  const query = db
    .select({
      key: firstOrderDiscounts.key,
      orderId: firstOrderDiscounts.orderId,
      browserKey: firstOrderDiscounts.browserKey,
      claimedAt: firstOrderDiscounts.claimedAt,
      status: orders.status,
      provider: orders.provider,
      createdAt: orders.createdAt,
    })
    .from(firstOrderDiscounts)
    .leftJoin(orders, eq(orders.id, firstOrderDiscounts.orderId))
    .where(inArray(firstOrderDiscounts.key, keys));
  return lock ? query.for('update', { of: firstOrderDiscounts }) : query;
}

/**
 * Whether the first-order discount is open to this buyer now (shown on the pay step; nothing is written): the
 * address has no account (an account exists once an order was paid), and neither this browser (`browserKey`, null
 * when it sent no cookie: then it is new) nor the address holds a claim that is `used` or `held` (see `holding`).
 * Returns `eligible`, or why not: `account` or `used`.
 */
export async function firstOrderStatus(
  db: Db,
  browserKey: string | null,
  email: string,
  now = new Date(),
): Promise<'eligible' | 'account' | 'used'> {
  if (await accountIdOf(db, email.trim().toLowerCase())) return 'account';
  const keys = claimKeys(browserKey ?? '', email).filter((k) => browserKey || !k.startsWith('browser:'));
  const rows = await claimRows(db, keys, false);
  const blocked = rows.some((row) => ['used', 'held'].includes(holding(row, browserKey ?? '', now)));
  return blocked ? 'used' : 'eligible';
}

/** Thrown inside the claim transaction to roll back a half-made claim. */
class ClaimRefused extends Error {}

/**
 * Gives the first-order discount to order `orderId` (not yet written: its id is drawn first) if this browser and this
 * e-mail address have not had it: the rule shown on the pay step, "first order from this browser and this address,
 * once". In one transaction, for the browser's key and then the address's key (always in that order, so two claims
 * cannot deadlock): insert the claim; if one exists, lock it and apply `holding` — `supersede` cancels the unpaid
 * holder order (`canceled`, failure `superseded`) under its row lock, so a payment running at the same time either
 * finishes first (then the discount is `used`) or finds the order cancelled. Concurrent claims wait on the primary key
 * and then see the winner's row: of 20 orders at once from one browser, one gets the discount.
 * Returns true when the order has the discount; false (nothing written) otherwise. Callers check accounts first.
 */
export async function claimFirstOrderDiscount(
  db: Db,
  claim: { browserKey: string; email: string; orderId: string },
  now = new Date(),
): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      for (const key of claimKeys(claim.browserKey, claim.email)) {
        const [inserted] = await tx
          .insert(firstOrderDiscounts)
          .values({ key, orderId: claim.orderId, browserKey: claim.browserKey, claimedAt: now })
          .onConflictDoNothing()
          .returning({ key: firstOrderDiscounts.key });
        if (inserted) continue;
        const [row] = await claimRows(tx, [key], true);
        const verdict = row ? holding(row, claim.browserKey, now) : 'held';
        if (verdict === 'used' || verdict === 'held') throw new ClaimRefused();
        if (verdict === 'supersede') {
          const voided = await applyOrderEvent(tx, row.orderId, 'superseded', {
            failureCode: 'superseded',
            pendingAction: null,
          });
          // Paid meanwhile (the payment held the row): the discount is spent.
          if (!voided) throw new ClaimRefused();
        }
        await tx
          .update(firstOrderDiscounts)
          .set({ orderId: claim.orderId, browserKey: claim.browserKey, claimedAt: now })
          .where(eq(firstOrderDiscounts.key, key));
      }
    });
    return true;
  } catch (error) {
    if (error instanceof ClaimRefused) return false;
    throw error;
  }
}
