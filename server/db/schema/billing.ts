import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { accountId, emailedLinkTable, users } from './accounts';
import type { Attribution } from './tracking';
import type { E164 } from '../../../lib/contracts/phone';
import { ORDER_STATES } from '../../../lib/order-machine';

/** Prices per currency, in integer minor units (docs/rules.md#data); seeded by a migration, editable. */
export const priceSetups = pgTable('price_setups', {
  id: id(),
  currency: text('currency').notNull(),
  /** Price of the 24-hour trial, minor units. */
  trialPriceMinor: integer('trial_price_minor').notNull(),
  /** Monthly price the trial converts to, minor units. */
  monthlyPriceMinor: integer('monthly_price_minor').notNull(),
  geolocationsPerPeriod: integer('geolocations_per_period').notNull().default(30),
  trialHours: integer('trial_hours').notNull().default(24),
  isDefault: boolean('is_default').notNull().default(false),
  /** Percent taken off the trial price while a discount offer runs (docs/rules.md#entities upRate), 0 for none. */
  offerPercentOff: integer('offer_percent_off').notNull().default(50),
  createdAt: createdAt(),
});

/**
 * The first-order discount as shown to one buyer (docs/rules.md#entities upRate): when it was first shown, per e-mail and number. An
 * order names it (`orders.offer_id`); whether the order gets the discount is decided by `first_order_discounts`.
 * `expiresAt` is deprecated: offers no longer end by time (rows from before the change keep their old end, which is
 * not read).
 */
export const priceOffers = pgTable(
  'price_offers',
  {
    id: id(),
    /** SHA-256 of `email|E.164`: one offer per buyer and number. */
    buyerKey: text('buyer_key').notNull(),
    priceSetupId: uuid('price_setup_id')
      .notNull()
      .references(() => priceSetups.id),
    percentOff: integer('percent_off').notNull(),
    shownAt: at('shown_at').notNull().defaultNow(),
    /** Deprecated, null for new offers: the discount no longer runs out (no countdown). */
    expiresAt: at('expires_at'),
  },
  (t) => [uniqueIndex('price_offers_buyer_key').on(t.buyerKey, t.priceSetupId)],
);

/**
 * Who has had the first-order discount (services/billing/first-order-discount.ts `claimFirstOrderDiscount`): one row
 * per browser (`browser:` + SHA-256 of its `offer_browser` cookie) and one per e-mail address (`email:` + SHA-256 of
 * the address), each naming the order holding it. The primary key makes a concurrent second claim wait for the first
 * and then find it. A holder that was never paid gives way to a newer order under the rules of
 * `claimFirstOrderDiscount`.
 */
export const firstOrderDiscounts = pgTable('first_order_discounts', {
  key: text('key').primaryKey(),
  /** The order holding the discount; claimed before the order row is written, so no foreign key. */
  orderId: uuid('order_id').notNull(),
  /** SHA-256 of the claiming browser's cookie: the same browser may move the discount to a newer order at once. */
  browserKey: text('browser_key').notNull(),
  claimedAt: at('claimed_at').notNull().defaultNow(),
});

/** Why an order was refunded, for Billing: `Billing.refundReason.*` in messages/*.json. */
export type RefundCause = 'unconsented_trial' | 'withdrawal' | 'requested';

/**
 * A refund claimed and not yet recorded (`orders.refund_claim` while the order is `refunding`,
 * services/billing/refund-claims.ts): everything the provider call and the record after it need, so that whoever finishes the
 * claim (its claimer, or the billing cycle's sweep after a crash) asks the provider the same question with the same
 * idempotency key. Instants are ISO 8601 strings (JSON).
 */
export type RefundClaim = {
  cause: RefundCause;
  /** The provider's idempotency key (Stripe: Idempotency-Key header); the same key never refunds twice. */
  key: string;
  /** What goes back, minor units; 0 for a withdrawal that refunds nothing (the claim still ends the subscription). */
  amountMinor: number;
  /** The decision's instant on the app's clock: the refund's or the withdrawal's time. */
  at: string;
  /** The language the buyer's e-mail writes money in. */
  lang: string;
  /** The subscriptions ended at the provider at once (Stripe: cancel), the ones not already canceled when called. */
  cancel: string[];
  /** A withdrawal's record (services/billing/withdrawals.ts), written when the claim is finished. */
  withdrawal?: {
    userId: string;
    subscriptionId: string | null;
    via: 'email_link' | 'account';
    /** SHA-256 of the e-mailed link's token it used, given back when the claim is released; null when signed in. */
    tokenHash: string | null;
    ip: string | null;
    userAgent: string | null;
    timeZone: string | null;
    periodEndsAt: string;
    rule: 'full' | 'pro_rata';
    paidMinor: number;
  };
};

/** The order's states, from its machine (lib/order-machine.ts, docs/order-states.md); written only by its events. */
export const orderStatus = pgEnum('order_status', ORDER_STATES);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    /** Public, unguessable order code used in checkout and status URLs. */
    code: text('code').notNull(),
    /**
     * The order reference people read and quote (`CH-7K4M-2Q`: Crockford base32, services/billing/order-reference.ts); unique,
     * set when the order is created. Never accepted in place of `code`: it is short enough to guess.
     */
    reference: text('reference').notNull(),
    email: text('email').notNull(),
    phoneE164: text('phone_e164').$type<E164>().notNull(),
    /** Who asks, as the buyer wrote it; shown to the owner. Null on orders from before it was asked. */
    requesterName: text('requester_name'),
    /** The buyer's optional note to the owner, ≤ 140 characters; shown on the consent page, never in the SMS. */
    note: text('note'),
    locale: text('locale').notNull().default('en'),
    userId: uuid('user_id').references(() => users.id),
    priceSetupId: uuid('price_setup_id')
      .notNull()
      .references(() => priceSetups.id),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider').notNull(),
    status: orderStatus('status').notNull().default('created'),
    failureCode: text('failure_code'),
    paidAt: at('paid_at'),
    /** `card` or `wallet` (docs/rules.md#limits: card or a PayPal-style wallet). */
    paymentMethod: text('payment_method', { enum: ['card', 'wallet'] })
      .notNull()
      .default('card'),
    /** The client's key: the same key makes the same order (a double click is one order). */
    idempotencyKey: text('idempotency_key'),
    offerId: uuid('offer_id').references(() => priceOffers.id),
    /** The trial price before any discount, minor units. */
    listPriceMinor: integer('list_price_minor'),
    /** A step the payer still has to complete, e.g. `3ds` (sandbox 3-D Secure). */
    pendingAction: text('pending_action'),
    /** What later renewals of a sandbox card do (`fails` for 4000 0000 0000 0341 and 3-D Secure cards). */
    sandboxRenewal: text('sandbox_renewal', { enum: ['succeeds', 'fails'] }),
    /** The last four digits of the card that paid (never the full number, PCI DSS 3.3 allows showing these). */
    cardLast4: text('card_last4'),
    /** The card's scheme as Stripe names it (`visa`, `mastercard`, `amex`, …); null for wallets or when unknown. */
    cardBrand: text('card_brand'),
    /** The provider's ids: Stripe Checkout Session, subscription and payment intent. */
    providerSessionId: text('provider_session_id'),
    providerPaymentId: text('provider_payment_id'),
    refundedAt: at('refunded_at'),
    /** The refund in progress while `refunding` (services/billing/refund-claims.ts); null otherwise. */
    refundClaim: jsonb('refund_claim').$type<RefundClaim>(),
    /** When the claim was taken, on the wall clock: a claim older than REFUND_CLAIM_STALE_MS is finished by the sweep. */
    refundClaimedAt: at('refund_claimed_at'),
    /**
     * The buyer asked for the service to start at once, before the 14-day withdrawal period ends (the pay step says so
     * above Pay: Directive 2011/83/EU Art. 7(3), 14(3)); a withdrawal after a location was shared then refunds pro rata.
     */
    startNow: boolean('start_now').notNull().default(false),
    /**
     * The paying instrument, hashed (SHA-256 of `card:` + Stripe's card fingerprint): the same card on a new e-mail is
     * the same payer (services/locate/requester-marks.ts). Null in the sandbox, whose test cards every visitor shares.
     */
    payerKey: text('payer_key'),
    /** SHA-256 of the ordering browser's `offer_browser` cookie (server/api/offer-browser-cookie.ts); null without one. */
    browserKey: text('browser_key'),
    /** The address the order was placed from, as its `clientKey` (an IPv6 client's /64); null when unknown. */
    clientKey: text('client_key'),
    /** Where the buyer came from: keyword, channel, click ids and the browser's event token. */
    attribution: jsonb('attribution').$type<Attribution>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('orders_code_key').on(t.code),
    uniqueIndex('orders_reference_key').on(t.reference),
    index('orders_user_id_idx').on(t.userId),
    uniqueIndex('orders_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('orders_provider_session_id_key').on(t.providerSessionId),
    // The sweep's look-up of claims left behind (services/billing/refund-claims.ts); only claimed rows are in it.
    index('orders_refund_claimed_at_idx')
      .on(t.refundClaimedAt)
      .where(sql`${t.refundClaimedAt} IS NOT NULL`),
  ],
);

/** docs/rules.md#data: `trialing -> active -> past_due -> active | canceled`; transitions in services/billing/subscriptions.ts. */
export const subscriptionStatus = pgEnum('subscription_status', ['trialing', 'active', 'past_due', 'canceled']);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: accountId(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    status: subscriptionStatus('status').notNull(),
    currentPeriodEnd: at('current_period_end').notNull(),
    /** Set by a cancel request to the current period end: access lasts until then, then `canceled`. */
    cancelAt: at('cancel_at'),
    canceledAt: at('canceled_at'),
    /** `sandbox` renewals run as our jobs; `stripe` ones arrive as webhooks. */
    provider: text('provider').notNull().default('sandbox'),
    providerSubscriptionId: text('provider_subscription_id'),
    /** When a `past_due` renewal is tried again (the next settlement day). */
    nextRetryAt: at('next_retry_at'),
    /**
     * When the last reminder was queued: the trial reminder, then each annual reminder (services/billing/annual-notices.ts claims
     * the next one only when this is older than its anniversary's window, so each is sent once).
     */
    reminderSentAt: at('reminder_sent_at'),
    ...timestamps(),
  },
  (t) => [
    index('subscriptions_user_id_idx').on(t.userId),
    uniqueIndex('subscriptions_provider_subscription_id_key').on(t.providerSubscriptionId),
  ],
);

/** Every charge attempt: the first payment of an order and each renewal, with its outcome. Minor units. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['initial', 'renewal'] }).notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    failureCode: text('failure_code'),
    createdAt: createdAt(),
  },
  (t) => [index('payments_order_id_idx').on(t.orderId)],
);

/** One refund per order (unique), sent to the provider with an idempotency key. Minor units. */
export const refunds = pgTable(
  'refunds',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    providerRef: text('provider_ref'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refunds_order_id_key').on(t.orderId)],
);

/** Provider webhook events already handled, by the provider's event id (Stripe webhooks docs: handle duplicates). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_events_provider_event_key').on(t.provider, t.eventId)],
);

/** Domain events written in the transaction that caused them (`order.paid`, `subscription.*`), for consumers and audit. */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    aggregateId: uuid('aggregate_id').notNull(),
    payload: jsonb('payload').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('domain_events_aggregate_idx').on(t.aggregateId)],
);

/** A cancel link e-mailed to a subscriber who asked without signing in (`/cancel`); only the SHA-256 hash is kept. */
export const cancelTokens = emailedLinkTable('cancel_tokens');

export type PriceSetup = typeof priceSetups.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
export type PriceOffer = typeof priceOffers.$inferSelect;
export type FirstOrderDiscount = typeof firstOrderDiscounts.$inferSelect;
