import { z } from 'zod';
import { BUYER_STATES } from '../request-machine';
import { askFields, formBoolean } from './fields';
import { SHARE_PRECISIONS } from './consent';

/**
 * The buyer's location requests' contract (`/spyContent*`, `/gpsTrace/phoneLocation/{id}`, its live stream): each
 * request body and answer once, as zod schemas. The routes validate and document with them
 * (server/api/routes/locations.ts, live.ts), the services return their types (server/services/locate/buyer-side.ts) and
 * the dashboard reads the same types (components/dashboard). docs/decisions/0010-one-contract-per-payload.md.
 */

/** The consent SMS texts a buyer may choose (server/services/locate/consent-sms.ts renders them; messages/*.json
 * `Sms`). */
export const SMS_TEXTS = ['standard'] as const;

/** The text a request gets when it names none, and the one a withdrawn text is sent in. */
export const DEFAULT_SMS_TEXT: (typeof SMS_TEXTS)[number] = 'standard';

/**
 * Texts once offered and since withdrawn: `contact` ("'Budi', one of your contacts, wants to see where this phone
 * is"; unnamed: "a contact wants…") claimed what we cannot know, who is in the owner's contacts, and a stranger's SMS
 * that says so is a lure (docs/rules.md#validation, "Consent SMS texts"). A new request naming one is refused
 * (422 `Validation.smsTextRemoved`); a stored request written with one is sent again in DEFAULT_SMS_TEXT
 * (server/services/locate/requests.ts `renewConsentLink`).
 */
export const REMOVED_SMS_TEXTS: readonly string[] = ['contact'];

/** What the buyer sees of a request's state (lib/request-machine.ts `buyerState`: a report is never shown as such). */
export const buyerStatusSchema = z.enum(BUYER_STATES);
export type RequestStatus = z.infer<typeof buyerStatusSchema>;

/** The path of the calls on one own request. */
export const requestIdParams = z.object({ id: z.uuid() });

/** What the owner's page last said during a share, in the list and the trace (lib/live-state.ts reads them). */
const liveFields = {
  ownerSeenAt: z
    .string()
    .nullable()
    .meta({ description: "when the owner's page last spoke during a share (heartbeat or fix), ISO 8601" }),
  liveSignal: z
    .enum(['hidden', 'permission_lost'])
    .nullable()
    .meta({ description: "why a share is paused, as the owner's page said it" }),
};

/**
 * The requester's ask for more time during one share (at most one per share; the owner alone decides, on their page):
 * `asked` (waiting for the owner), `granted` (the owner added time), `refused` (the owner said no). Null: not asked in
 * this share. No SMS is sent for an ask.
 */
export const MORE_TIME_ASKS = ['asked', 'granted', 'refused'] as const;
export type MoreTimeAsk = (typeof MORE_TIME_ASKS)[number];

/** A position: degrees, `accuracy` in metres (null for an IP area without a radius). */
export const positionSchema = z.object({
  id: z.number().int().meta({ description: "increasing per position: the live stream's event id" }),
  source: z.enum(['gps', 'ip']),
  latitude: z.number().meta({ description: 'degrees' }),
  longitude: z.number().meta({ description: 'degrees' }),
  accuracy: z.number().nullable().meta({ description: 'metres; null for an IP position without a radius' }),
  precision: z.enum(SHARE_PRECISIONS).meta({
    description:
      'exact, or approximate: the centre of a fixed cell of about 2 km (lib/geo.ts areaCell) with `accuracy` its half-diagonal; the map shows the area, never a point',
  }),
  label: z.string().nullable(),
  recordedAt: z.string(),
});
export type Position = z.infer<typeof positionSchema>;

/** What the list and the trace say of every request. */
const requestFields = {
  id: z.string(),
  phone: z.string().meta({ description: 'E.164' }),
  status: buyerStatusSchema,
  locationDenied: z.boolean().meta({ description: 'the owner tapped Share but the browser refused the location' }),
  withdrawn: z.boolean().meta({ description: 'ended with the subscription' }),
  erased: z.boolean().meta({
    description:
      "the phone's owner deleted what they had shared, in the safety centre (server/services/safety/ `eraseShared`): its positions are gone, the consent records kept",
  }),
  createdAt: z.string(),
  ...liveFields,
};

/** One row of `GET /spyContent`. */
export const requestRowSchema = z.object({
  ...requestFields,
  positions: z.number(),
  lastPositionAt: z.string().nullable().meta({ description: 'when the newest position was recorded' }),
  smsStatus: z.string().nullable(),
  smsSentAt: z.string().nullable().meta({ description: 'when the provider took the consent SMS; null while it waits' }),
  expiresAt: z.string().meta({ description: 'when the consent link stops working' }),
  updated: z.boolean().meta({
    description:
      'news since the subscriber last looked (notificationsTotal): the owner answered, a position came, the request ended or its SMS failed; not the buyer’s own new request',
  }),
});
export type RequestRow = z.infer<typeof requestRowSchema>;

/** `GET /spyContent`'s query: the page (from 1) and its size (1–100). */
export const requestPageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** `GET /spyContent`'s page: the rows, the quota of the billing period and the unseen changes. */
export const requestPageSchema = z.object({
  list: z.array(requestRowSchema),
  total: z.number(),
  pageNum: z.number(),
  pageSize: z.number(),
  quota: z.object({ used: z.number().int(), total: z.number().int() }).nullable(),
  notificationsTotal: z.number().int().meta({ description: 'requests that changed or got a position since last seen' }),
});
export type RequestPage = z.infer<typeof requestPageSchema>;

/** The end of a share and the requester's ask for more time, in the trace and the live `state` event. */
const shareEndFields = {
  sharingUntil: z
    .string()
    .nullable()
    .meta({ description: 'the end of the share, ISO 8601 UTC; moves when the owner adds time' }),
  moreTime: z.enum(MORE_TIME_ASKS).nullable().meta({ description: "the requester's ask for more time in this share" }),
};

/** `GET /gpsTrace/phoneLocation/{id}`: one own request with its newest positions. */
export const locationTraceSchema = z.object({
  ...requestFields,
  ...shareEndFields,
  ended: z
    .enum(['owner', 'time'])
    .nullable()
    .meta({ description: 'for a stopped request: stopped by the owner, or the duration ran out' }),
  positions: z.array(positionSchema),
  place: z
    .object({
      name: z.string(),
      region: z.string().nullable(),
      country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }),
      distanceM: z.number().meta({ description: 'metres from the newest GPS fix' }),
    })
    .nullable()
    .meta({ description: 'the named place nearest to the newest GPS fix (offline gazetteer), within 100 km' }),
});
export type LocationTrace = z.infer<typeof locationTraceSchema>;

/**
 * The live stream's `state` event (server/services/locate/live-streams.ts writes it,
 * components/dashboard/use-live-trace.ts reads it): the request's state as the buyer sees it, what the owner's page
 * last said, the share's end and the ask for more time. Times ISO 8601 UTC.
 */
export const liveStateSchema = locationTraceSchema.pick({
  status: true,
  ownerSeenAt: true,
  liveSignal: true,
  sharingUntil: true,
  moreTime: true,
});
export type LiveState = z.infer<typeof liveStateSchema>;

/**
 * The most people the people map shows (`GET /gpsTrace/people` and its live stream): the running shares first, then
 * the ended ones by their newest fix. A buyer's quota allows far fewer requests at once, so the cap only bounds the
 * stream's subscriptions.
 */
export const PEOPLE_MAX = 20;

/**
 * `GET /gpsTrace/people` and the people stream's `people` event: every request of the account that is sharing, or has
 * shared and still has its positions (they are deleted POSITION_RETENTION_DAYS after the end, or when the owner or the
 * buyer deletes them: then it leaves the map). Each is the request's trace (`locationTraceSchema`) with only its newest
 * GPS fix in `positions` (or none yet), running shares first, oldest request first within each group, at most
 * PEOPLE_MAX.
 */
export const peopleSchema = z.object({ people: z.array(locationTraceSchema).max(PEOPLE_MAX) });
export type People = z.infer<typeof peopleSchema>;

/**
 * The events of the people stream (`GET /gpsTrace/people/live`) other than `people` and `person` (a whole trace, as
 * in `peopleSchema`): each names its request in `r`. `position`: a new GPS fix; `state`: as the single stream's
 * `state` (`liveStateSchema`); `place`: the nearest named place changed; `gone`: the request left the map (its
 * positions were deleted).
 */
export type PeopleEvent =
  | { event: 'people'; data: People }
  | { event: 'person'; data: LocationTrace }
  | { event: 'position'; data: Position & { r: string } }
  | { event: 'state'; data: LiveState & { r: string } }
  | { event: 'place'; data: Pick<LocationTrace, 'place'> & { r: string } }
  | { event: 'gone'; data: { r: string } };

/** `POST /gpsTrace/phoneLocation/{id}/more-time`'s answer: the ask as it now stands. */
export const moreTimeAskSchema = z.object({ moreTime: z.enum(MORE_TIME_ASKS) });
export type MoreTimeAskAnswer = z.infer<typeof moreTimeAskSchema>;

/** `POST /spyContent/phoneLocation`'s body: a new request (the route parses `phone` with `country` into E.164). */
export const newRequestBody = z.object({
  // Who asks is checked before the number, as it always was.
  requesterName: askFields.requesterName,
  note: askFields.note,
  phone: askFields.phone,
  country: askFields.country,
  text: z
    .enum(SMS_TEXTS, {
      error: (issue) => (REMOVED_SMS_TEXTS.includes(String(issue.input)) ? 'Validation.smsTextRemoved' : undefined),
    })
    .default(DEFAULT_SMS_TEXT)
    .meta({ description: `one of ${SMS_TEXTS.join(', ')}; a withdrawn text (${REMOVED_SMS_TEXTS.join(', ')}) is 422` }),
  /** The SMS language; absent: guessed from the number's country. */
  locale: z.enum(['en', 'id', 'es', 'en-PH']).optional(),
});

/** What a page sends as a new request: the body's input (the SMS text one of SMS_TEXTS). */
export type NewRequestBody = z.input<typeof newRequestBody>;

/** `POST /spyContent/phoneLocation`'s answer. */
export const newRequestSchema = z.object({
  id: z.string(),
  link: z.string().meta({ description: 'the consent link, shown once' }),
});
export type NewRequest = z.infer<typeof newRequestSchema>;

/** `POST /spyContent/phoneLocation/{id}/link`: also send the SMS again (else only a new link). */
export const renewLinkBody = z.object({ send: formBoolean.default(false) });

/** `POST /spyContent/phoneLocation/{id}/link`'s answer. */
export const renewedLinkSchema = z.object({ link: z.string(), smsQueued: z.boolean() });
export type RenewedLink = z.infer<typeof renewedLinkSchema>;

/** One consent SMS text a buyer may choose (`GET /multilingualWord/one/3/phone_text`); `{link}` stands for the link. */
export const smsTextSchema = z.object({ id: z.string(), locale: z.string(), text: z.string() });
export type SmsText = z.infer<typeof smsTextSchema>;

/** `GET /multilingualWord/one/3/phone_text`: the consent SMS texts, one per language. */
export const smsTextsSchema = z.array(smsTextSchema);

/** `POST /spyContent/notifications/seen`: the buyer's unseen notifications, none now. */
export const notificationsSeenSchema = z.object({ notificationsTotal: z.literal(0) });

/** `POST /gpsTrace/phoneLocation/{id}/refresh`: when the owner's page was asked for a fresh fix (ISO 8601 UTC). */
export const refreshAskedSchema = z.object({ askedAt: z.string().meta({ description: 'ISO 8601 UTC' }) });
