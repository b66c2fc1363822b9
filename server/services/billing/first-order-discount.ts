import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrderDiscounts, orders, priceOffers, type PriceOffer, type PriceSetup } from '../../db/schema';
import { accountIdOf } from '../accounts';
import { sha256 } from '../tokens';
import { applyOrderEvent } from './order-transitions';
import { PAID_STATES } from '../../../lib/order-machine';

// The first-order discount (docs/rules.md "Entities", upRate: a percentage off the trial): the offer as shown to a
// buyer and number, and who may have it, "first order from this browser and this address, once" (table
// `first_order_discounts`), claimed so that concurrent orders cannot both get it. The prices are ./prices.ts.

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
