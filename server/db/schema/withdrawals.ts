import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';
import { emailedLinkTable } from './accounts';
import { orders, refunds } from './billing';

/**
 * A withdrawal link e-mailed to a buyer who asked without signing in (`/withdraw`, Directive 2011/83/EU Art. 11a): the
 * same single-use, 24-hour shape as `cancel_tokens`, kept apart so a cancel link never withdraws and the reverse.
 * Only the SHA-256 of the token is stored.
 */
export const withdrawalTokens = emailedLinkTable('withdrawal_tokens');

/**
 * The record of a buyer's withdrawal from a contract (Directive 2011/83/EU Art. 11a, services/billing/withdrawals.ts): one per
 * order (unique), append-only — a trigger refuses UPDATE, DELETE and TRUNCATE (drizzle/0020). Who (the account and
 * address, copied so the row stands on its own; no cascade from the account), when, from where (IP, user agent, the
 * browser's time zone), by which path, and the refund computed by the rule (minor units): `full` within the 14 days,
 * `pro_rata` when the buyer asked for an immediate start and a location was shared.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id').notNull(),
    email: text('email').notNull(),
    subscriptionId: uuid('subscription_id'),
    /** `email_link` (the `/withdraw` link, no sign-in) or `account` (signed in). */
    via: text('via', { enum: ['email_link', 'account'] }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The IANA zone the buyer's browser reported (e.g. `Europe/Madrid`), for the acknowledgement; null if none. */
    timeZone: text('time_zone'),
    withdrawnAt: at('withdrawn_at').notNull(),
    /** The last moment of the 14-day withdrawal period (the order's payment + 14 days). */
    periodEndsAt: at('period_ends_at').notNull(),
    rule: text('rule', { enum: ['full', 'pro_rata'] }).notNull(),
    /** What the buyer paid under the contract until the withdrawal (trial and renewals), minor units. */
    paidMinor: integer('paid_minor').notNull(),
    refundMinor: integer('refund_minor').notNull(),
    currency: text('currency').notNull(),
    refundId: uuid('refund_id').references(() => refunds.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('withdrawals_order_id_key').on(t.orderId), index('withdrawals_user_id_idx').on(t.userId)],
);

export type Withdrawal = typeof withdrawals.$inferSelect;
