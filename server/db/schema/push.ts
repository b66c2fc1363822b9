import { integer, pgTable, smallint, text, index, uniqueIndex, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { at, createdAt, id } from './columns';
import { accountId } from './accounts';

/**
 * The application server's VAPID key pair (RFC 8292), made once by the first process that needs it and kept: a push
 * service binds every subscription to the public key it was made with, so a new pair would silently orphan them all.
 * One row (id 1). The private key signs the JWT of each push request; it never leaves the server.
 */
export const webPushKeys = pgTable(
  'web_push_keys',
  {
    id: smallint('id').primaryKey().default(1),
    /** Uncompressed P-256 public key, base64url (the browser's `applicationServerKey`). */
    publicKey: text('public_key').notNull(),
    /** P-256 private key, base64url. */
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('web_push_keys_one_row', sql`${t.id} = 1`)],
);

/**
 * A browser's push subscription (W3C Push API `PushSubscription`) for a subscriber's device: where to send and the
 * keys to encrypt for it (RFC 8291). An endpoint belongs to one account (the last to subscribe on that browser). Removed
 * when the buyer turns notifications off or the push service answers 404/410 (RFC 8030 §7.3: the subscription is gone).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: accountId(),
    /** The push service URL to POST to (https; validated against private addresses on the way in). */
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 ECDH public key, base64url. */
    p256dh: text('p256dh').notNull(),
    /** The browser's 16-byte authentication secret, base64url. */
    auth: text('auth').notNull(),
    /** The subscribing browser's User-Agent, cut to 200 characters, so the buyer can tell devices apart. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    /** When a push service last accepted a message for it. */
    lastSentAt: at('last_sent_at'),
    /** Failed sends in a row (reset by a success). */
    failures: integer('failures').notNull().default(0),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_id_idx').on(t.userId),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
