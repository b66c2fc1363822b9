import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './columns';
import { users } from './accounts';

/** Prices per currency, in integer minor units (ARCHITECTURE §4); seeded by a migration, editable. */
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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** ARCHITECTURE §4: `created -> pending -> paid | failed | canceled`; `paid -> refunded`. */
export const orderStatus = pgEnum('order_status', ['created', 'pending', 'paid', 'failed', 'canceled', 'refunded']);

export const orders = pgTable(
  'orders',
  {
    id: id(),
    /** Public, unguessable order code used in checkout and status URLs. */
    code: text('code').notNull(),
    email: text('email').notNull(),
    phoneE164: text('phone_e164').notNull(),
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
    paidAt: timestamp('paid_at', { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [uniqueIndex('orders_code_key').on(t.code), index('orders_user_id_idx').on(t.userId)],
);

/** ARCHITECTURE §4: `trialing -> active -> past_due -> active | canceled` (the checkout issue completes it). */
export const subscriptionStatus = pgEnum('subscription_status', ['trialing', 'active', 'past_due', 'canceled']);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    status: subscriptionStatus('status').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAt: timestamp('cancel_at', { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index('subscriptions_user_id_idx').on(t.userId)],
);

export type PriceSetup = typeof priceSetups.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
