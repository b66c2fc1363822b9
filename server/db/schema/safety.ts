import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns';
import { accountId } from './accounts';
import { locationRequests } from './locate';
import type { E164 } from '../../../lib/contracts/phone';

// The phone owner's safety centre (docs/SPEC.md, the owner's side; server/services/safety.ts): every request made to
// one number, reached with a consent code or a one-time code sent by SMS, with its own short session.

/**
 * A safety-centre session: for one number only, separate from buyer accounts. Only the SHA-256 of the random token
 * (the HttpOnly cookie's value) is kept; it ends at `expiresAt` (30 minutes after it was opened: services/sessions.ts,
 * kind `safety`).
 */
export const safetySessions = pgTable(
  'safety_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    phoneE164: text('phone_e164').$type<E164>().notNull(),
    /**
     * How it was opened: `sms`, with a one-time code sent to the number; `link`, with a consent link's code, which the
     * requester may hold too (the link is shown to them to pass on) — such a session cannot undo a block.
     */
    via: text('via', { enum: ['link', 'sms'] })
      .notNull()
      .default('sms'),
    /**
     * For a `link` session: the buyer account that made the link's request. Such a session shows and acts on that
     * requester's requests only — the requester may hold the link, and must never see the other requesters of the
     * number or act on their requests. Null for an `sms` session (the whole centre).
     */
    requesterId: uuid('requester_id'),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('safety_sessions_phone_idx').on(t.phoneE164)],
);

/**
 * The one-time code last sent by SMS to a number to open its safety centre: its SHA-256, when it stops working and
 * how many wrong tries it took (at most SAFETY_CODE_TRIES for all clients together). One row per number: a new code
 * replaces the previous one once this one has ended or used its tries.
 */
export const safetyCodes = pgTable('safety_codes', {
  phoneE164: text('phone_e164').$type<E164>().primaryKey(),
  codeHash: text('code_hash').notNull(),
  /**
   * The 6 digits themselves, so that asking again within the code's 10 minutes sends the same code instead of a new
   * one (docs/decisions/0016-safety-code-limits.md): a hash of 6 digits hides nothing (a million tries), and the row
   * is deleted when the code is used and by the daily run once it has ended. Null for a decoy row (a number we never
   * texted: the same work is done for it, and it never opens a session).
   */
  code: text('code'),
  expiresAt: at('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * A requester the owner of a number blocked: that buyer account can no longer ask the number (new requests and new
 * links are refused before any SMS). Deleting the row unblocks.
 */
export const requesterBlocks = pgTable(
  'requester_blocks',
  {
    phoneE164: text('phone_e164').$type<E164>().notNull(),
    userId: accountId(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.phoneE164, t.userId] })],
);

/**
 * The buyer opened the map of a request while it was shared (a read of the request's trace in a live state), at
 * most one row a minute per request. Shown to the owner in the safety centre; deleted with the request.
 */
export const requestViews = pgTable(
  'request_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    viewedAt: at('viewed_at').notNull().defaultNow(),
  },
  (t) => [index('request_views_request_idx').on(t.requestId, t.viewedAt)],
);

/**
 * The short reference of a request the owner quotes when reporting (`SR-7K4M-2Q`, Crockford base32), given the first
 * time the safety centre lists the request; unique.
 */
export const requestReferences = pgTable(
  'request_references',
  {
    requestId: uuid('request_id')
      .primaryKey()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    reference: text('reference').notNull(),
  },
  (t) => [uniqueIndex('request_references_reference_key').on(t.reference)],
);

/**
 * When the owner deleted what was shared with a request from the safety centre (its positions); the consent records
 * stay for their retention period.
 */
export const requestErasures = pgTable('request_erasures', {
  requestId: uuid('request_id')
    .primaryKey()
    .references(() => locationRequests.id, { onDelete: 'cascade' }),
  erasedAt: at('erased_at').notNull().defaultNow(),
});
