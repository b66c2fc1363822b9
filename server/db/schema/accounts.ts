import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';

/** A buyer's account; the e-mail (lower-cased) is the login (docs/rules.md#the-product, #entities). */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    /** argon2id hash (docs/rules.md#security). */
    passwordHash: text('password_hash').notNull(),
    /** Set while the password is a generated temporary one: it stops working then (7 days after it was made). */
    tempPasswordExpiresAt: at('temp_password_expires_at'),
    passwordChangedAt: at('password_changed_at'),
    /** When the subscriber last looked at their locations: newer status changes and positions count as unseen. */
    notificationsSeenAt: at('notifications_seen_at'),
    /** docs/rules.md#entities: 0 marks a temporary 'middle' user whose purchase is pending. */
    paymentCount: integer('payment_count').notNull().default(0),
    /**
     * Failed sign-ins in a row since the last successful one or password reset (NIST SP 800-63B §5.2.2): at
     * LOGIN_LOCK_AFTER_FAILURES (100) the password no longer signs in until a reset code sets a new one.
     */
    failedLogins: integer('failed_logins').notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/**
 * `user_id`: the account a row belongs to, deleted with it (ON DELETE CASCADE: erasing an account erases what it
 * asked and holds, docs/rules.md#data).
 */
export const accountId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * A table of single-use links e-mailed to an account (`/cancel`, `/withdraw`): only the SHA-256 of the 256-bit token
 * is kept (unique, `<name>_token_hash_key`), with its expiry and the time it was used (docs/rules.md#security). One
 * table per purpose, so a link made for one never serves the other.
 */
export const emailedLinkTable = <N extends string>(name: N) =>
  pgTable(
    name,
    {
      id: id(),
      userId: accountId(),
      tokenHash: text('token_hash').notNull(),
      expiresAt: at('expires_at').notNull(),
      usedAt: at('used_at'),
      createdAt: createdAt(),
    },
    (t) => [uniqueIndex(`${name}_token_hash_key`).on(t.tokenHash)],
  );

/** A revocable session; only the SHA-256 hash of the 256-bit token is stored (docs/rules.md#security). */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: accountId(),
    tokenHash: text('token_hash').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    /** Idle expiry (30 days after last use), slid forward on use. */
    expiresAt: at('expires_at').notNull(),
    /** Absolute expiry: 90 days after sign-in, never extended. */
    absoluteExpiresAt: at('absolute_expires_at')
      .notNull()
      .default(sql`now() + interval '90 days'`),
    /** Opened with a temporary password: may only change the password until it does. */
    restricted: boolean('restricted').notNull().default(false),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_id_idx').on(t.userId)],
);

/** A password-reset code: 6 digits, stored as SHA-256, 15 minutes, single use, burnt by the 5th wrong guess. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: id(),
    userId: accountId(),
    codeHash: text('code_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** Set when the code was used, replaced by a newer one, or burnt by wrong guesses. */
    consumedAt: at('consumed_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_codes_user_id_idx').on(t.userId)],
);

/** Counters of rate-limiter-flexible's RateLimiterPostgres (its own table shape). */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Session = typeof sessions.$inferSelect;
