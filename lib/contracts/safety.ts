import { z } from 'zod';
import { REQUEST_STATES } from '../request-machine';
import { SAFETY_ACTIONS } from '../safety';
import { reportReason } from './consent';
import { localeBody } from './fields';

/**
 * The phone owner's safety centre's contract (`/safety*`): each request body and answer once, as zod schemas. The
 * route validates and documents with them (server/api/routes/safety.ts), the service returns their types
 * (server/services/safety.ts `safetyOverview`) and the page reads them (app/[locale]/safety/, components/safety).
 * Times are ISO 8601 UTC strings, durations ms. docs/decisions/0010-one-contract-per-payload.md.
 */

/** `POST /safety/session/consent`: open the centre with a consent code (from the SMS link). */
export const consentEntryBody = z.object({ code: z.string().min(16).max(64) });

/** The owner's number as the centre's forms send it (the route parses it with `country` into E.164). */
const phoneFields = { phone: z.string().trim().min(3).max(40), country: z.string().length(2).optional() };

/** `POST /safety/code`: send a one-time code by SMS to this number, in this language. */
export const safetyCodeBody = z.object({ ...phoneFields, locale: localeBody });

/** `POST /safety/session`: open the centre with the one-time code. */
export const codeEntryBody = z.object({
  ...phoneFields,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Api.safetyCodeInvalid'),
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
