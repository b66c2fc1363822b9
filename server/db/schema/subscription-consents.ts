import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/**
 * Proof of the buyer's consent to the subscription, one row per order, written when the buyer presses Pay (California
 * Business and Professions Code section 17602 as amended by AB 2863: the business keeps the consumer's affirmative consent
 * with the terms; US FTC ROSCA: the terms are disclosed before billing information). It keeps the exact terms shown
 * (the rendered text, its SHA-256 and the version of the terms of use it refers to), the prices, the time, the
 * client's address and user agent. Append-only (a trigger refuses UPDATE and TRUNCATE, and DELETE except the
 * retention purge after SUBSCRIPTION_CONSENT_RETENTION_DAYS, 3 years by default). No foreign key: it outlives the
 * order it proves.
 */
export const subscriptionConsents = pgTable(
  'subscription_consents',
  {
    id: id(),
    orderId: uuid('order_id').notNull(),
    userEmail: text('user_email').notNull(),
    locale: text('locale').notNull(),
    /** `terms-of-use@<first 12 hex of the SHA-256 of the terms of use's text in that locale>`. */
    termsVersion: text('terms_version').notNull(),
    termsText: text('terms_text').notNull(),
    termsHash: text('terms_hash').notNull(),
    trialPriceMinor: integer('trial_price_minor').notNull(),
    monthlyPriceMinor: integer('monthly_price_minor').notNull(),
    currency: text('currency').notNull(),
    startNow: boolean('start_now').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('subscription_consents_order_idx').on(t.orderId),
    index('subscription_consents_email_idx').on(t.userEmail),
  ],
);

export type SubscriptionConsent = typeof subscriptionConsents.$inferSelect;
