import { index, integer, jsonb, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';

/**
 * docs/rules.md#data: `queued -> sent -> delivered | failed`; `sending` while a worker holds the message's lease and
 * its provider call is under way.
 */
export const messageStatus = pgEnum('message_status', ['queued', 'sent', 'delivered', 'failed', 'sending']);

/** The outbox: every e-mail and SMS is written here in the transaction that causes it, then delivered by a job. */
export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms', 'push'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** Template name (server/services/messaging/templates.ts) and the locale it was rendered in. */
    template: text('template'),
    locale: text('locale').notNull().default('en'),
    /** The template's parameters, kept for support and re-rendering. */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    subject: text('subject'),
    /** Plain-text body (the SMS text for SMS). */
    body: text('body').notNull(),
    /** HTML body of an e-mail (parameters escaped). */
    html: text('html'),
    providerMessageId: text('provider_message_id'),
    /** The location request a consent SMS belongs to; its delivery moves the request to `sms_sent`. */
    locationRequestId: uuid('location_request_id'),
    status: messageStatus('status').notNull().default('queued'),
    provider: text('provider'),
    attempts: integer('attempts').notNull().default(0),
    /** While `sending`: until when the worker that claimed it owns the message; past it, another may try again. */
    leaseUntil: at('lease_until'),
    /** When a failed attempt may be retried (services/messaging/outbox-schedule.ts); null: at once. */
    nextAttemptAt: at('next_attempt_at'),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    /** When the provider was last asked for this SMS's status (the status job). */
    statusCheckedAt: at('status_checked_at'),
    /**
     * `body`/`html` with their secret parts (temporary password, reset code, cancel or consent link) removed, written
     * with the row; they replace the originals once delivery no longer needs them. Null: no secret.
     */
    redacted: jsonb('redacted').$type<{ body: string; html: string | null }>(),
    /** When `redacted` replaced the secret-bearing texts. */
    redactedAt: at('redacted_at'),
    ...timestamps(),
  },
  (t) => [index('outbound_messages_status_idx').on(t.status, t.createdAt)],
);

export type OutboundMessage = typeof outboundMessages.$inferSelect;
export type NewOutboundMessage = typeof outboundMessages.$inferInsert;

/** A message sent through the contact form (`/contact-us`); support is e-mailed through the outbox. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    locale: text('locale').notNull().default('en'),
    ip: text('ip'),
    createdAt: createdAt(),
    /** When an operator last replied by e-mail from the console. */
    repliedAt: at('replied_at'),
  },
  (t) => [index('support_messages_email_idx').on(t.email)],
);
