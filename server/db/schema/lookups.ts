import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns';
import type { BreachView } from '../../../lib/contracts/data-leaks';
import { users } from './accounts';

/**
 * The last data-leak check of each account: the e-mail it was for (a changed e-mail is checked anew),
 * the breaches found and when; reused for `BREACH_CACHE_MS` (a day).
 */
export const breachChecks = pgTable('breach_checks', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  breaches: jsonb('breaches').$type<BreachView[]>().notNull(),
  checkedAt: at('checked_at').notNull(),
});

/** `running` until every site answered (`done`) or the visitor stopped it (`stopped`). */
export const usernameCheckStatus = pgEnum('username_check_status', ['running', 'stopped', 'done']);

/**
 * A reverse username lookup: the public id is a random token, stored hashed (`idHash`); kept an hour
 * (`expiresAt`), then deleted with its results.
 */
export const usernameChecks = pgTable(
  'username_checks',
  {
    idHash: text('id_hash').primaryKey(),
    username: text('username').notNull(),
    includeNsfw: boolean('include_nsfw').notNull().default(false),
    status: usernameCheckStatus('status').notNull().default('running'),
    /** How many sites the check covers. */
    total: integer('total').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('username_checks_expires_idx').on(t.expiresAt)],
);

/** found / not found / unknown, decided by the WhatsMyName rules (`e_code`/`e_string`, `m_code`/`m_string`). */
export const usernameOutcome = pgEnum('username_outcome', ['found', 'not_found', 'unknown']);

/** One site's answer in a username lookup. */
export const usernameCheckResults = pgTable(
  'username_check_results',
  {
    checkIdHash: text('check_id_hash')
      .notNull()
      .references(() => usernameChecks.idHash, { onDelete: 'cascade' }),
    site: text('site').notNull(),
    outcome: usernameOutcome('outcome').notNull(),
    checkedAt: at('checked_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.checkIdHash, t.site] })],
);
