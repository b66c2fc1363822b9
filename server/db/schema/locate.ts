import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, timestamps } from './columns';
import { accountId } from './accounts';
import { orders } from './billing';
import type { E164 } from '../../../lib/contracts/phone';
import { OPEN_STATES, REQUEST_STATES } from '../../../lib/request-machine';
import { MORE_TIME_ASKS } from '../../../lib/contracts/locations';
import { SHARE_PRECISIONS } from '../../../lib/contracts/consent';

/** The location-request states, from the one table in lib/request-machine.ts. */
export const locationRequestStatus = pgEnum('location_request_status', REQUEST_STATES);

/** Statuses before the owner's first answer: the consent link is open. */
export { OPEN_STATES };

/** A request to locate one number; the consent link carries a separate code, stored only as its SHA-256 hash. */
export const locationRequests = pgTable(
  'location_requests',
  {
    id: id(),
    userId: accountId(),
    orderId: uuid('order_id').references(() => orders.id),
    targetE164: text('target_e164').$type<E164>().notNull(),
    /** Who asks, shown on the consent page and in the SMS; null on requests from before it was asked. */
    requesterName: text('requester_name'),
    /** The buyer's optional note to the owner, ≤ 140 characters, shown under the name; never in the SMS. */
    note: text('note'),
    locale: text('locale').notNull(),
    consentCodeHash: text('consent_code_hash').notNull(),
    smsText: text('sms_text').notNull(),
    /** Set when the owner shared at least once; a request that never shared gives its quota credit back. */
    firstSharedAt: at('first_shared_at'),
    status: locationRequestStatus('status').notNull().default('queued'),
    /** End of the sharing window the owner chose; positions are accepted only before it. */
    sharingUntil: at('sharing_until'),
    /** When the consent link stops working (CONSENT_LINK_TTL_HOURS after creation). */
    expiresAt: at('expires_at').notNull(),
    /**
     * When the owner tapped Share but the browser's location was refused or unavailable: nothing was
     * stored and the request stays `opened`; the buyer sees "opened, location not allowed". Cleared by a share.
     */
    locationDeniedAt: at('location_denied_at'),
    /**
     * When the owner's page last said it was open and sharing (a heartbeat while visible, or a fix); the buyer reads
     * "offline" when it is older than LIVE_OFFLINE_AFTER_MS (lib/live-state.ts). Null before the first share.
     */
    ownerSeenAt: at('owner_seen_at'),
    /**
     * Why a share is `paused`, as the owner's page said it: `hidden` (page hidden, phone locked or page closed) or
     * `permission_lost` (the browser's location permission was revoked). Null otherwise.
     */
    liveSignal: text('live_signal', { enum: ['hidden', 'permission_lost'] }),
    /**
     * The `ownerSeenAt` the buyer was last alerted about as silent ("no update for 5 minutes",
     * services/locate/buyer-alerts.ts): a silence is announced once; the next fix or heartbeat starts a new one.
     */
    silenceAlertedFor: at('silence_alerted_for'),
    /**
     * The requester's ask for more time in the running share (lib/contracts/locations.ts MORE_TIME_ASKS): `asked`,
     * then `granted` or `refused` by the owner. Cleared when a new share starts: one ask per share.
     */
    moreTimeAsk: text('more_time_ask', { enum: MORE_TIME_ASKS }),
    /**
     * How precise the running or last share is, the owner's choice (lib/contracts/consent.ts SHARE_PRECISIONS): an
     * `approximate` share stores only the cells of lib/geo.ts `areaCell`, whatever the page sends.
     */
    precision: text('precision', { enum: SHARE_PRECISIONS }).notNull().default('exact'),
    /**
     * Until when a buyer's map of the request counts as open: each app process holding a live stream of it pushes this
     * forward (services/locate/watchers.ts). The owner's page sends every fix while it lies ahead and rests otherwise.
     */
    watchedUntil: at('watched_until'),
    /** When the buyer last pressed "Refresh now": the owner's open page sends one high-accuracy fix for it. */
    fixWantedAt: at('fix_wanted_at'),
    /** When the request was withdrawn because the buyer's subscription ended; status `withdrawn`. */
    withdrawnAt: at('withdrawn_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('location_requests_consent_code_hash_key').on(t.consentCodeHash),
    index('location_requests_user_id_idx').on(t.userId),
    /** The safety centre lists a number's requests; blocks and the cool-down look up one buyer and one number. */
    index('location_requests_target_idx').on(t.targetE164, t.userId),
  ],
);

/** The owner's decisions on the consent page: each one is its own append-only record. */
export const CONSENT_DECISIONS = [
  'shared',
  'shared_again',
  'extended',
  'approximated',
  'stopped',
  'declined',
  'reported',
] as const;

/**
 * The owner's decisions on the consent page: when, from where, and a hash of the text they were shown. Append-only:
 * a database trigger refuses UPDATE, and DELETE except the retention purge (CONSENT_RETENTION_DAYS after the
 * request's positions are deleted). No foreign key: the record outlives its request.
 */
export const consents = pgTable(
  'consents',
  {
    id: id(),
    requestId: uuid('request_id').notNull(),
    /** The number the request was for (E.164), so the record stands on its own. */
    targetE164: text('target_e164').$type<E164>(),
    decision: text('decision', { enum: CONSENT_DECISIONS }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    textHash: text('text_hash').notNull(),
    /** Sharing duration the owner chose, minutes; for `extended`, the minutes the owner added to the running share. */
    durationMinutes: integer('duration_minutes'),
    /**
     * For a `reported` decision: the owner's optional reason, plain text of at most 140 characters held to the note's
     * rules (lib/validation/requester-name.ts `ownerNoteProblem`); null when none was given.
     */
    reason: text('reason'),
    /** For `shared`, `shared_again` and `approximated`: how precise the owner chose the share to be. */
    precision: text('precision', { enum: SHARE_PRECISIONS }),
    /**
     * Whether the answer came from the requester's side, and how it is known (services/locate/requester-marks.ts
     * `answeredByRequester`): `session` (signed in as the request's buyer), `device` (the browser the request was made
     * from), `address` (its address only: a family may share one); null when from none of them. The record is kept
     * either way; the signals about the requester weigh it (`requesterSignals`, `ownerRefusalOf`).
     */
    requesterSide: text('requester_side', { enum: ['session', 'device', 'address'] }),
    createdAt: createdAt(),
  },
  (t) => [index('consents_request_id_idx').on(t.requestId)],
);

/** What identifies who made a request, beyond the account (services/locate/requester-marks.ts). */
export const MARK_KINDS = ['account', 'payer', 'device', 'address', 'name'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

/**
 * The marks of the requester of a request, each a SHA-256 of its kind and value: the account, the paying instrument,
 * the browser, the address and the requester name's folded form. The owner's protections (block, cool-down, review)
 * follow a person through any one of them, so a new e-mail does not shed them. Deleted with the request.
 */
export const requesterMarks = pgTable(
  'requester_marks',
  {
    requestId: uuid('request_id')
      .notNull()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: MARK_KINDS }).notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.kind] }), index('requester_marks_kind_value_idx').on(t.kind, t.value)],
);

/** A position: from the browser's GPS (`gps`) or from the request IP (`ip`); accuracy in metres. */
export const positions = pgTable(
  'positions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => locationRequests.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['gps', 'ip'] }).notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    /** Radius of the 68% confidence circle, metres; null for an IP position whose database gives none. */
    accuracyM: doublePrecision('accuracy_m'),
    /** `approximate`: the centre of an area cell (lib/geo.ts `areaCell`) and its half-diagonal, never a point. */
    precision: text('precision', { enum: SHARE_PRECISIONS }).notNull().default('exact'),
    label: text('label'),
    recordedAt: at('recorded_at').notNull().defaultNow(),
  },
  (t) => [index('positions_request_id_idx').on(t.requestId, t.recordedAt)],
);

/**
 * Numbers that receive no more consent SMS: the owner reported abuse on the consent page or answered STOP, or an
 * operator added the number (`operator`, with a note).
 */
export const optOuts = pgTable('opt_outs', {
  phoneE164: text('phone_e164').$type<E164>().primaryKey(),
  reason: text('reason', { enum: ['report', 'stop', 'operator'] }).notNull(),
  /** An operator's reason for adding the number. */
  note: text('note'),
  /** The request whose page the report came from, when there is one. */
  requestId: uuid('request_id'),
  createdAt: createdAt(),
});

export type LocationRequest = typeof locationRequests.$inferSelect;
export type Position = typeof positions.$inferSelect;
