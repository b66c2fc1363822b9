import 'server-only';
import { randomUUID } from 'node:crypto';
import { clientKey } from '../client-ip';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, type Attribution, type Order } from '../../db/schema';
import { accountIdOf } from '../accounts';
import { env } from '../../env';
import { paymentProvider } from '../../providers/payments';
import { DomainError } from '../../errors';
import { randomToken } from '../tokens';
import { newOrderReference } from './order-reference';
import type { E164 } from '../../../lib/contracts/phone';
import { refusalError, smsRefusal } from '../locate';
import { buyerKey, claimFirstOrderDiscount, findOffer } from './first-order-discount';
import { discounted, preferredCurrency, priceSetup } from './prices';
import { formatMoney } from '../money';
import { recordSubscriptionConsent } from './subscription-consents';

// A buyer's order (docs/rules.md "API" `POST /portal/order`, the order's states in docs/order-states.md): created
// `pending` at the price of the `price_setups` row (never the client's), with the proof of consent to the
// subscription, after the SMS guards said the number can be asked; then the payment provider's checkout. What the
// pages read of an order is ./order-views.ts; paying it is ./checkout.ts (sandbox) and the Stripe webhooks.

/** How many times `createOrder` draws a new reference when the drawn one is taken. */
const REFERENCE_ATTEMPTS = 8;

export type OrderInput = {
  email: string;
  /** The number to locate, parsed where it came in (server/api/phone.ts `e164Of`). */
  phone: E164;
  /** Who asks, validated by `requesterNameBody`; shown to the owner once the order is paid. */
  requesterName: string;
  /** The optional note to the owner, validated by `ownerNoteBody`; null: none. */
  note?: string | null;
  locale: string;
  /** Price setup id; the default price when absent. */
  plan?: string;
  method: 'card' | 'wallet';
  /** The first-order discount as shown to this buyer (`POST /portal/priceSetup/offer`): asks for the discount. */
  offer?: string;
  /** The browser's key (`browserKeyOf` its `offer_browser` cookie): the first-order discount is once per browser. */
  browser?: string;
  /** The client's idempotency key: the same key returns the same order. */
  idempotencyKey?: string;
  /** The buyer asked for the service to start at once (the pay step's statement; orders.start_now); `orderBody` requires it. */
  startNow?: boolean;
  /** The client's address and user agent, kept with the proof of consent to the subscription. */
  client?: { ip: string | null; userAgent: string | null };
  /** Where the buyer came from (tracking fields and event token). */
  attribution?: Attribution;
  /** The caller's account when signed in with a full session; only its own e-mail may be ordered for. */
  buyer?: { id: string } | null;
};

/**
 * Creates an order for `email` to locate `phone` (E.164) and starts checkout with
 * the configured provider (docs/rules.md#api `POST /portal/order`). The amount comes from `price_setups` (never the client):
 * the trial price, discounted when the order names the buyer's offer and is the first order from this browser and
 * this address (`claimFirstOrderDiscount`). Status `pending`.
 *
 * An e-mail that already has an account is refused (409 `Api.emailRegistered`, detail `reason: 'email_registered'`)
 * unless the caller is signed in as that account; then the order is attached to it (`userId`), and paying it adds to
 * that account without opening a session (a payment never signs anyone in to an account that existed
 * before it).
 *
 * Errors: DomainError `conflict` `Api.emailRegistered`; `forbidden`/`limited` when the consent SMS could not be sent to the number
 * (sms-guards, checked before anyone pays); 409 `Api.offerUsed` (detail `reason: 'discount_used'`, the regular price)
 * when the discount asked for is not this order's (another order from this browser or address has it, or the caller
 * is signed in: not a first order);
 * 409 `Api.idempotencyMismatch` when the key was used for another buyer or number; 404 for an unknown plan.
 */
export async function createOrder(db: Db, input: OrderInput): Promise<{ order: Order; next: string }> {
  const e164 = input.phone;
  const email = input.email.trim().toLowerCase();
  if (input.idempotencyKey) {
    const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey));
    if (existing) return replay(db, existing, email, e164);
  }
  const ownerId = await accountIdOf(db, email);
  if (ownerId && ownerId !== input.buyer?.id) throw emailRegistered();
  // Refuse before payment what could not be sent after it: opted-out numbers, countries, daily caps, and the owner's
  // block or cool-down of this requester under any e-mail (same browser, address or requester name).
  const refusal = await smsRefusal(db, e164, {
    account: ownerId ?? input.buyer?.id ?? null,
    device: input.browser ?? null,
    address: input.client?.ip ?? null,
    name: input.requesterName ?? null,
  });
  if (refusal) throw refusalError(refusal);
  const price = await priceSetup(db, input.plan, preferredCurrency(input.locale));
  // Drawn first: the first-order discount is claimed for this id before the row is written.
  const orderId = randomUUID();
  const amountMinor = await trialAmount(db, input, { email, e164, ownerId, orderId, price });
  const values = {
    id: orderId,
    email,
    phoneE164: e164,
    requesterName: input.requesterName,
    note: input.note ?? null,
    locale: input.locale,
    priceSetupId: price.id,
    amountMinor,
    listPriceMinor: price.trialPriceMinor,
    currency: price.currency,
    provider: env().PAYMENT_PROVIDER,
    paymentMethod: input.method,
    offerId: input.offer ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    startNow: input.startNow ?? false,
    browserKey: input.browser ?? null,
    clientKey: input.client?.ip ? clientKey(input.client.ip) : null,
    attribution: input.attribution ?? {},
    userId: ownerId,
    status: 'pending' as const,
  };
  let inserted: Order | undefined;
  for (let attempt = 1; !inserted; attempt++) {
    // Any unique key may be taken: the idempotency key (another request with it won: answer with its order), or,
    // rarely, the drawn reference (draw again; 32⁶ values, so a second draw practically always succeeds).
    // The proof of the buyer's consent to the subscription is written with the order, in one transaction.
    inserted = await insertWithConsent(db, values, input, price);
    if (inserted) break;
    if (input.idempotencyKey) {
      const [existing] = await db.select().from(orders).where(eq(orders.idempotencyKey, input.idempotencyKey));
      if (existing) return replay(db, existing, email, e164);
    }
    if (attempt >= REFERENCE_ATTEMPTS) throw new Error('no free order reference after several draws');
  }
  return startPayment(db, inserted, price);
}

/**
 * The trial's amount (minor units of `price.currency`) of the order `orderId` being created: the trial price, or, when
 * the order names the buyer's offer (`input.offer`, found for this buyer and number and this price), that price
 * discounted once the first-order discount is claimed for the order (a new buyer, `ownerId` null, with a browser key:
 * `claimFirstOrderDiscount`). Throws 409 `Api.offerUsed` (detail `reason: 'discount_used'`, with the regular price
 * formatted in `input.locale`) when the offer is unknown or the discount is not this order's.
 */
async function trialAmount(
  db: Db,
  input: OrderInput,
  order: { email: string; e164: E164; ownerId: string | null; orderId: string; price: PriceSetup },
): Promise<number> {
  const { email, e164, ownerId, orderId, price } = order;
  if (!input.offer) return price.trialPriceMinor;
  const offer = await findOffer(db, input.offer, buyerKey(email, e164), price.id);
  const claimed =
    !!offer &&
    !ownerId &&
    !!input.browser &&
    (await claimFirstOrderDiscount(db, { browserKey: input.browser, email, orderId }));
  if (!offer || !claimed) {
    throw new DomainError(
      'conflict',
      'Api.offerUsed',
      { price: formatMoney(price.trialPriceMinor, price.currency, input.locale) },
      { reason: 'discount_used' },
    );
  }
  return discounted(price.trialPriceMinor, offer.percentOff);
}

/**
 * One try at writing the order `values` with a new code and a freshly drawn reference, and with it, in the same
 * transaction, the proof of the buyer's consent to the subscription (./subscription-consents.ts: the amounts of
 * `price`, the descriptor, the method, the client's address and user agent of `input`). Returns the row, or undefined
 * when a unique key was taken (the idempotency key or the reference) and nothing was written.
 */
async function insertWithConsent(
  db: Db,
  values: Omit<typeof orders.$inferInsert, 'code' | 'reference'> & {
    email: string;
    amountMinor: number;
    startNow: boolean;
  },
  input: OrderInput,
  price: PriceSetup,
): Promise<Order | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({ ...values, code: randomToken(16), reference: newOrderReference() })
      .onConflictDoNothing()
      .returning();
    if (row) {
      await recordSubscriptionConsent(tx, {
        orderId: row.id,
        email: values.email,
        locale: input.locale,
        trialMinor: values.amountMinor,
        monthlyMinor: price.monthlyPriceMinor,
        currency: price.currency,
        geolocations: price.geolocationsPerPeriod,
        descriptor: env().BILLING_DESCRIPTOR,
        method: input.method,
        startNow: values.startNow,
        ip: input.client?.ip ?? null,
        userAgent: input.client?.userAgent ?? null,
      });
    }
    return row;
  });
}

/** A price setup as ./prices.ts `priceSetup` reads it. */
type PriceSetup = Awaited<ReturnType<typeof priceSetup>>;

/** Starts the provider's checkout of a new order and keeps the provider's session id; where the payer goes next. */
async function startPayment(db: Db, inserted: Order, price: PriceSetup) {
  const checkout = await paymentProvider(inserted.provider).startCheckout(inserted, price);
  if (checkout.sessionId) {
    await db.update(orders).set({ providerSessionId: checkout.sessionId }).where(eq(orders.id, inserted.id));
  }
  return { order: inserted, next: checkout.url };
}

/**
 * 409 for an order naming an e-mail that has an account the caller is not signed in to (docs/rules.md#errors 'The email address you
 * entered is already registered!'); `reason` lets the pay step offer a sign-in link.
 */
export function emailRegistered(): DomainError {
  return new DomainError('conflict', 'Api.emailRegistered', {}, { reason: 'email_registered' });
}

/**
 * The answer for a repeated idempotency key: the same order and its checkout page, if it is the same buyer and number
 * (409 otherwise). The provider is not asked again, unless the first attempt never got a Stripe Checkout Session
 * (Stripe answers the same idempotency key, `checkout-<code>`, with the same session for 24 hours).
 */
async function replay(db: Db, order: Order, email: string, e164: E164) {
  if (order.email !== email || order.phoneE164 !== e164) {
    throw new DomainError('conflict', 'Api.idempotencyMismatch');
  }
  if (order.provider === 'stripe' && !order.providerSessionId) {
    return startPayment(db, order, await priceSetup(db, order.priceSetupId));
  }
  return { order, next: paymentProvider(order.provider).checkoutUrl(order) };
}
