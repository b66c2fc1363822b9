import { z } from 'zod';
import { REQUEST_STATES } from '../request-machine';
import { SAFETY_ACTIONS } from '../safety';
import { reportReason } from './consent';
import { localeBody } from './fields';
import { phoneCountry, phoneInput } from './phone';

/**
 * The phone owner's safety centre's contract (`/safety*`): each request body and answer once, as zod schemas. The
 * route validates and documents with them (server/api/routes/safety.ts), the service returns their types
 * (server/services/safety.ts `safetyOverview`) and the page reads them (app/[locale]/safety/, components/safety).
 * Times are ISO 8601 UTC strings, durations ms. docs/decisions/0010-one-contract-per-payload.md.
 */

/** `POST /safety/session/consent`: open the centre with a consent code (from the SMS link). */
export const consentEntryBody = z.object({ code: z.string().min(16).max(64) });

/**
 * The owner's number as the centre's forms send it, with the page's `locale`: the route parses it into E.164, a
 * national number in `country` (ISO 3166-1 alpha-2), else in the locale's country (lib/phone-country.ts
 * `LOCALE_COUNTRY`: es → ES, id → ID, en-PH → PH), as the home page's locate box reads it. Refusals answer the
 * `Validation.phone*` messages.
 */
const phoneFields = {
  phone: phoneInput,
  country: phoneCountry,
  locale: localeBody.unwrap().optional().meta({ description: "the page's locale; its country reads national numbers" }),
};

/**
 * `POST /safety/code`: send a one-time code by SMS to this number, in `locale`'s language (else the
 * Accept-Language's).
 */
export const safetyCodeBody = z.object(phoneFields);

/** `POST /safety/session`: open the centre with the one-time code (6 digits; `Validation.code*` when not). */
export const codeEntryBody = z.object({
  ...phoneFields,
  code: z
    .string('Validation.codeRequired')
    .trim()
    .min(1, 'Validation.codeRequired')
    .regex(/^\d+$/, 'Validation.codeNumeric')
    .length(6, 'Validation.codeLength'),
});

/** A safety-centre session just opened: when it ends. */
export const safetySessionSchema = z.object({ expiresAt: z.string().meta({ description: 'when the session ends' }) });

/** One request as the centre lists it. */
export const safetyRequestSchema = z.object({
  id: z.string(),
  reference: z
    .string()
    .meta({ description: 'short reference to quote when reporting, e.g. SR-7K4M-2Q (Crockford base32)' }),
  requesterName: z
    .string()
    .nullable()
    .meta({ description: 'who asks, as the buyer wrote it; null on requests made before it was asked' }),
  requester: z.string().meta({ description: "the requester's e-mail, masked" }),
  createdAt: z.string(),
  note: z.string().nullable().meta({ description: "the buyer's note to the owner" }),
  state: z.enum(REQUEST_STATES).meta({ description: 'the state in lib/request-machine.ts' }),
  sharedMs: z.number().int().meta({ description: 'how long the number shared with this request in all, ms' }),
  views: z
    .array(z.string())
    .meta({ description: 'when the requester opened the map during a share, newest first (at most 50)' }),
  viewCount: z.number().int().meta({ description: 'map openings recorded in all' }),
  positions: z.number().int().meta({ description: 'positions the requester can still see' }),
  erasedAt: z.string().nullable().meta({ description: 'when the owner deleted what was shared' }),
  blocked: z.boolean().meta({ description: 'the owner blocked this requester' }),
});
export type SafetyRequest = z.infer<typeof safetyRequestSchema>;

/** `GET /safety`: every request to the session's number and whether the number is on the opt-out list. */
export const safetyOverviewSchema = z.object({
  phone: z.string().meta({ description: 'E.164' }),
  requests: z.array(safetyRequestSchema),
  optedOut: z.boolean(),
  undoable: z.boolean().meta({ description: 'false when an operator put the number on the list' }),
  consentRetentionDays: z.number().int(),
  canUndoBlocks: z.boolean().meta({
    description: 'false when the session was opened with a consent link: undoing a block needs an SMS code',
  }),
  canBlockEveryone: z.boolean().meta({
    description: 'false when the session was opened with a consent link: Block everyone needs an SMS code',
  }),
});
export type SafetyOverview = z.infer<typeof safetyOverviewSchema>;

/** `POST /safety/actions`: the actions of lib/safety.ts `SAFETY_ACTIONS`, each with what it needs. */
export const safetyActionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('stop_all') }),
  z.object({ action: z.literal('block'), requestId: z.uuid() }),
  z.object({ action: z.literal('unblock'), requestId: z.uuid() }),
  z.object({ action: z.literal('block_all') }),
  z.object({ action: z.literal('unblock_all') }),
  z.object({ action: z.literal('erase'), requestId: z.uuid() }),
  z.object({ action: z.literal('report'), requestId: z.uuid(), reason: reportReason }),
]);

/** What a page sends as a safety action: the body's input. */
export type SafetyActionBody = z.input<typeof safetyActionBody>;

/** `POST /safety/actions`'s answer: what the action did. */
export const safetyActionResultSchema = z.object({
  action: z.enum(SAFETY_ACTIONS),
  stopped: z.number().int().optional(),
  declined: z.number().int().optional(),
  deleted: z.number().int().optional(),
  reference: z.string().optional(),
  optedOut: z.boolean().optional(),
});
export type SafetyActionResult = z.infer<typeof safetyActionResultSchema>;
