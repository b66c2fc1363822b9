import { z } from 'zod';
import { REQUEST_STATES } from '../request-machine';
import { byRule } from './fields';
import { normalizeOwnerNote, ownerNoteProblem } from '../validation/requester-name';
import { prototypeOf } from '../validation/skeleton';

/**
 * The consent page's contract (`/spyContent/consent/{id}`, `PUT /spyContent/phoneLocation/{id}`): each request body
 * and answer once, as zod schemas. The route validates and documents with them (server/api/routes/consent.ts), the
 * service returns their types (server/services/locate/consent.ts) and the owner's page reads them (components/share).
 * docs/decisions/0010-one-contract-per-payload.md.
 */

/** Sharing durations the owner may choose (minutes); default 60. */
export const SHARE_PRESETS = [15, 60, 480] as const;

/**
 * How precise a share is, the owner's choice on the consent page: the exact GPS position, or an approximate area
 * (a fixed cell of about 2 km, lib/geo.ts `areaCell`, snapped on the phone before it is sent and again by the server).
 * The owner may go from exact to approximate while sharing; back to exact only with a new share.
 * docs/decisions/0022-approximate-area-cells.md.
 */
export const SHARE_PRECISIONS = ['exact', 'approximate'] as const;
export type SharePrecision = (typeof SHARE_PRECISIONS)[number];

/**
 * What the owner may add to a running share (minutes): "+15 min" and "+1 h", as WhatsApp's live location and Glympse
 * let the sharer extend before the end. Never beyond MAX_SHARE_MINUTES from the moment of the tap.
 */
export const MORE_TIME_STEPS = [15, 60] as const;

/** The furthest a share's end may lie from now (minutes): the longest duration offered. */
export const MAX_SHARE_MINUTES = Math.max(...SHARE_PRESETS);

/**
 * The whole minutes that `minutes` more may add to a share ending at `until` (ms since the epoch) when the owner taps
 * at `now` (ms): at most up to MAX_SHARE_MINUTES from `now`, 0 when the end is there already. The server applies it
 * (server/services/locate/more-time.ts) and the owner's page greys out a step that would add nothing.
 */
export function minutesAddable(until: number, minutes: number, now: number): number {
  const end = Math.min(until + minutes * 60_000, now + MAX_SHARE_MINUTES * 60_000);
  return Math.max(0, Math.floor((end - until) / 60_000));
}

/** The request's state as the owner sees it: the whole table of lib/request-machine.ts. */
export const requestStateSchema = z.enum(REQUEST_STATES);

/** The path of the owner's calls: the consent code of the SMS link. */
export const consentCodeParams = z.object({ id: z.string().min(16).max(64) });

/**
 * What the owner is told of the account that asks (server/services/locate/consent.ts `requesterFacts`), shown beside
 * the name.
 */
export const requesterFactsSchema = z
  .object({
    newAccount: z.boolean().meta({ description: 'the account was created less than 24 hours ago' }),
    since: z.string().meta({ description: 'the month the account was created, YYYY-MM (UTC)' }),
    requests: z.number().int().meta({ description: 'location requests the account made, this one too' }),
    reported: z.number().int().meta({ description: 'how many of them their owners reported as abuse' }),
  })
  .meta({ description: 'what we know of the account that asks, shown beside the name' });
export type RequesterFacts = z.infer<typeof requesterFactsSchema>;

/** `GET /spyContent/consent/{id}`: what the consent page shows. */
export const consentViewSchema = z.object({
  product: z.string(),
  requester: z.string().meta({ description: "the requester's e-mail, masked (u•••@example.com)" }),
  requesterName: z
    .string()
    .nullable()
    .meta({ description: 'who asks, as the buyer wrote it; null on requests from before it was asked' }),
  facts: requesterFactsSchema,
  note: z.string().nullable().meta({
    description: "the buyer's note to the owner, plain text, at most 140 characters; null when none",
  }),
  status: requestStateSchema,
  reported: z.boolean().meta({ description: 'the owner reported this request as abuse' }),
  ended: z.enum(['owner', 'time']).nullable().meta({
    description: 'for a stopped request: stopped by the owner, or the chosen duration ran out',
  }),
  withdrawn: z.boolean().meta({ description: "the buyer's subscription ended; the request is over" }),
  locationDenied: z.boolean().meta({ description: 'the browser refused the location last time (nothing stored)' }),
  expiresAt: z.string(),
  sharingUntil: z.string().nullable(),
  moreTimeAsked: z.boolean().meta({
    description: 'the requester asked for more time during this share and the owner has not answered yet',
  }),
  precision: z.enum(SHARE_PRECISIONS).meta({ description: 'how precise the running or last share is' }),
  presets: z.array(z.number()).meta({ description: 'the sharing durations to choose from, minutes' }),
});
export type ConsentView = z.infer<typeof consentViewSchema>;

/**
 * A coordinate or accuracy: a finite decimal number, as JSON number or as a form string like `-33.8688` or `1e2`
 *. `null`, `""`, booleans, arrays and hexadecimal strings are refused (422), never coerced.
 */
const decimal = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/)
          .transform(Number),
      ],
      {
        error: 'Validation.coordinates',
      },
    )
    .pipe(
      z.number().finite('Validation.coordinates').min(min, 'Validation.coordinates').max(max, 'Validation.coordinates'),
    );

/** A browser fix: latitude and longitude in degrees, accuracy radius in metres (Geolocation API `coords`). */
const fix = {
  latitude: decimal(-90, 90),
  longitude: decimal(-180, 180),
  accuracy: decimal(0, 1_000_000),
};

/**
 * The owner's optional reason for a report: plain text held to the rules of the buyer's note to the owner
 * (`ownerNoteProblem`, lib/validation/requester-name.ts: at most 140 characters, nothing invisible, no link, web or
 * e-mail address, no phone number, look-alikes included), so nothing a stranger typed reaches the operators' console
 * as a link or a number to call. A refusal answers 422 with `Validation.reportReason*` (Length, Link, Phone, Invalid).
 * Absent, empty or blank: null (no reason); stored with line breaks as spaces and whitespace collapsed.
 */
export const reportReason = z
  .string()
  .max(2000, 'Validation.reportReasonLength')
  .superRefine(
    byRule(
      (value) => ownerNoteProblem(value, prototypeOf)?.replace('Validation.note', 'Validation.reportReason') ?? null,
    ),
  )
  .transform(normalizeOwnerNote)
  .nullish()
  .transform((v) => v ?? null)
  .describe("the owner's optional reason for the report, at most 140 characters, no links or phone numbers");

/** `PUT /spyContent/phoneLocation/{id}`'s body: the owner's answer or a position. */
export const answerBody = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('share'),
    minutes: z.coerce
      .number()
      .int()
      .refine((m) => (SHARE_PRESETS as readonly number[]).includes(m), 'Validation.invalid')
      .default(60),
    precision: z.enum(SHARE_PRECISIONS, { error: 'Validation.invalid' }).default('exact'),
    ...fix,
  }),
  z.object({ action: z.literal('denied') }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('stop') }),
  z.object({ action: z.literal('report'), reason: reportReason }),
  z.object({ action: z.literal('position'), ...fix }),
  z.object({
    action: z.literal('extend'),
    minutes: z.coerce
      .number()
      .int()
      .refine((m) => (MORE_TIME_STEPS as readonly number[]).includes(m), 'Validation.invalid'),
  }),
  z.object({ action: z.literal('keep_end') }),
  z.object({ action: z.literal('approximate') }),
]);

/** What the owner's page learns of a running share with each answer: its end and the requester's pending ask. */
const shareNews = {
  sharingUntil: z.string().nullable().meta({ description: 'the end of the share, ISO 8601 UTC' }),
  moreTimeAsked: z.boolean().meta({ description: 'the requester asked for more time; the owner has not answered' }),
  watched: z.boolean().meta({
    description:
      "a buyer's map of the request is open: the page sends every fix, else it rests (server/services/locate/watchers.ts)",
  }),
  fixWantedAt: z.string().nullable().meta({
    description: 'when the buyer pressed "Refresh now", ISO 8601 UTC: the page sends one high-accuracy fix for it',
  }),
};

/**
 * `PUT /spyContent/phoneLocation/{id}`'s answer: the request's new state, and for a position, an extension and the
 * refusal of an ask, the share's end and the requester's pending ask.
 */
export const consentAnswerSchema = z.object({ status: requestStateSchema, ...z.object(shareNews).partial().shape });
export type ConsentAnswer = z.infer<typeof consentAnswerSchema>;

/** `POST /spyContent/phoneLocation/{id}/presence`'s answer: the share's state, its end and the requester's ask. */
export const presenceAnswerSchema = z.object({ status: z.enum(['sharing', 'paused']), ...shareNews });
export type PresenceAnswer = z.infer<typeof presenceAnswerSchema>;
