import { index, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns';

/**
 * Attribution of an order: the tracked fields the buyer's browser sent with it (docs/rules.md#api) and its event
 * token, so the funnel can follow one visitor from landing to paid, consent and sharing.
 */
export type Attribution = {
  trackId?: string;
  keyword?: string;
  channel?: string;
  gclid?: string;
  wbraid?: string;
  gaCid?: string;
};

/**
 * The operation log (docs/rules.md#entities "Operation log event"): one row per event. Browser events come from
 * `POST /operationLog`; the facts the server witnesses itself (paid, consent opened, shared) are written by
 * server/services/events.ts with the buyer's attribution, so blocked scripts do not lose them.
 */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: id(),
    eventCode: text('event_code').notNull(),
    /** Always 1 (docs/rules.md#entities). */
    eventType: smallint('event_type').notNull().default(1),
    /** Path and query of the page, at most 2,000 characters. */
    currDocument: text('curr_document').notNull(),
    domain: text('domain').notNull(),
    /** The browser's event token (`track_id` header), null when none was sent. */
    trackId: text('track_id'),
    /** 3 mobile, 2 otherwise (docs/rules.md#entities `phone_os`). */
    phoneOs: smallint('phone_os'),
    /** The client's `version` header ('fmp1.3'). */
    appVersion: text('app_version'),
    locale: text('locale').notNull().default('en'),
    channel: text('channel').notNull().default('SEO'),
    keyword: text('keyword'),
    gclid: text('gclid'),
    wbraid: text('wbraid'),
    source: text('source', { enum: ['browser', 'server'] })
      .notNull()
      .default('browser'),
    createdAt: createdAt(),
  },
  (t) => [index('operation_logs_event_created_idx').on(t.eventCode, t.createdAt)],
);

/** A button click (docs/rules.md#entities "Button-click record"): channel, button id and os code (2 desktop, 1 iOS, 0 other). */
export const buttonClicks = pgTable(
  'button_clicks',
  {
    id: id(),
    btnId: text('btn_id').notNull(),
    apkChannel: text('apk_channel').notNull().default('SEO'),
    os: smallint('os').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('button_clicks_created_idx').on(t.createdAt)],
);

/**
 * An ad conversion event (docs/rules.md#entities, #api, `POST /api_{hash}`), sent by browsers only after the visitor accepted cookies.
 * Forwarded to the Meta Conversions API when META_PIXEL_ID and META_CAPI_TOKEN are set (`forward_status`).
 */
export const adEvents = pgTable(
  'ad_events',
  {
    id: id(),
    eventName: text('event_name').notNull(),
    /** When it happened, from the client's `eventTime` (seconds). */
    eventTime: at('event_time').notNull(),
    actionSource: text('action_source').notNull().default('website'),
    userData: jsonb('user_data').$type<{ fbc?: string; fbp?: string }>().notNull(),
    eventSourceUrl: text('event_source_url'),
    testEventCode: text('test_event_code'),
    /** Sent to Meta with the event for matching (Conversions API customer information parameters). */
    clientIp: text('client_ip'),
    clientUserAgent: text('client_user_agent'),
    forwardStatus: text('forward_status', { enum: ['not_configured', 'queued', 'sent', 'failed'] }).notNull(),
    forwardAttempts: integer('forward_attempts').notNull().default(0),
    lastError: text('last_error'),
    forwardedAt: at('forwarded_at'),
    createdAt: createdAt(),
  },
  (t) => [index('ad_events_created_idx').on(t.createdAt)],
);
