import 'server-only';
import type { Context } from 'hono';
import { z } from 'zod';
import { LIMITS } from '../../lib/validation/schemas';
import {
  normalizeOwnerNote,
  normalizeRequesterName,
  ownerNoteProblem,
  requesterNameProblem,
} from '../../lib/validation/requester-name';
import { prototypeOf } from '../../lib/validation/skeleton';
import { normalizeUsername, usernameProblem } from '../../lib/validation/username';
import type { Attribution } from '../db/schema/tracking';
import { ApiError, ErrorCode } from './errors';

/**
 * zod-openapi `defaultHook`: a failed validation of params, query or body becomes a 422 whose `msg` is the first
 * issue's message. Schema messages are message keys (`Validation.emailInvalid`); an issue with zod's own wording
 * becomes `Validation.invalid` naming the field.
 */
export function validationHook(result: { success: boolean; error?: z.ZodError }): void {
  if (result.success || !result.error) return;
  throw zodToApiError(result.error);
}

/** The ApiError (422) for a zod error, keyed by the first issue. */
export function zodToApiError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'body';
  const key = issue?.message.startsWith('Validation.') ? issue.message : 'Validation.invalid';
  return new ApiError(422, ErrorCode.validation, key, { field }, { field });
}

/**
 * The validated request body whichever way it came: JSON or form-encoded (docs/rules.md#api), as validated by the
 * route's zod-openapi body schemas. A request with no body is validated as `{}` so required fields still fail.
 * Throws ApiError 422 when that fails.
 */
export function readBody<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  const req = c.req as unknown as { valid(target: 'json' | 'form'): unknown };
  if (type.startsWith('application/json')) return req.valid('json') as z.infer<T>;
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data'))
    return req.valid('form') as z.infer<T>;
  const empty = schema.safeParse({});
  if (!empty.success) throw zodToApiError(empty.error);
  return empty.data;
}

/** The `request.body` of a route that takes `schema` as form fields or JSON. */
export function bodyOf<T extends z.ZodType>(schema: T) {
  return {
    required: false,
    content: {
      'application/x-www-form-urlencoded': { schema },
      'application/json': { schema },
    },
  } as const;
}

/** A boolean that also accepts form values: 'true', '1', 'on' (checked box) and 'false', '0', ''. */
export const formBoolean = z.preprocess(
  (v) => (typeof v === 'string' ? ['true', '1', 'on'].includes(v.toLowerCase()) : v),
  z.boolean(),
);

/** An e-mail field of a request body (docs/rules.md#validation messages), trimmed, at most 254 characters. */
export const emailBody = z
  .string('Validation.emailRequired')
  .trim()
  .min(1, 'Validation.emailRequired')
  .max(LIMITS.emailMax, 'Validation.emailInvalid')
  .pipe(z.email('Validation.emailInvalid'));

/** A refinement reporting the message key a shared rule (`lib/validation`) gives for a value, if any. */
function byRule(problemOf: (value: string) => string | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/**
 * The requester name of an order or a new request: required, 2–40 characters with at least two visible letters, no
 * invisible or format characters, no links, e-mail addresses or phone numbers, look-alikes included
 * (`requesterNameProblem` with the confusables table); stored trimmed with inner whitespace collapsed. 422 with the
 * rule's key.
 */
export const requesterNameBody = z
  .string('Validation.requesterNameRequired')
  .max(400, 'Validation.requesterNameLength')
  .superRefine(byRule((value) => requesterNameProblem(value, prototypeOf)))
  .transform(normalizeRequesterName)
  .describe('who asks, shown to the phone owner, 2–40 characters, e.g. "Anna (your sister)"');

/**
 * The buyer's optional note to the owner: at most 140 characters, the requester name's rules but the letters (no
 * invisible characters, links, e-mail addresses or phone numbers; line breaks become spaces), `ownerNoteProblem`.
 * Absent, empty or blank: null (no note). 422 with the rule's key.
 */
export const ownerNoteBody = z
  .string()
  .max(2000, 'Validation.noteLength')
  .superRefine(byRule((value) => ownerNoteProblem(value, prototypeOf)))
  .transform(normalizeOwnerNote)
  .nullish()
  .transform((v) => v ?? null)
  .describe('optional note shown to the owner under the requester name, at most 140 characters, never in the SMS');

/**
 * The username of a reverse username lookup: 1–64 characters of letters, digits, `.`, `_`, `-` and
 * inner spaces, never an e-mail address or a phone number (`usernameProblem`); trimmed. 422 with the rule's key.
 */
export const usernameBody = z
  .string('Validation.usernameRequired')
  .max(400, 'Validation.usernameLength')
  .superRefine(byRule(usernameProblem))
  .transform(normalizeUsername)
  .describe(
    'a username, 1–64 characters with a letter or digit (never a dot segment); not an e-mail address or a phone number',
  );

/** The page language a request names (`locale`), for texts rendered later (e-mails, SMS). */
export const localeBody = z.enum(['en', 'id', 'es', 'en-PH']).default('en');

/** A tracked field of docs/rules.md#api (keyword, apkChannel, gclid, wbraid, gaCid): optional, trimmed, at most 500 characters. */
const trackedField = z.string().trim().max(500).optional();

/** The tracking fields the browser client merges into every body (docs/rules.md#api), to spread into a body schema. */
export const trackingFields = {
  keyword: trackedField,
  apkChannel: trackedField,
  gclid: trackedField,
  wbraid: trackedField,
  gaCid: trackedField,
};

/** The `track_id` header (docs/rules.md#entities): the browser's 64-hex event token, or undefined when absent or malformed. */
export function trackIdOf(c: Context): string | undefined {
  const value = c.req.header('track_id');
  return value && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}

/** An order's attribution from the tracking fields of its body and the `track_id` header. Empty values dropped. */
export function attributionOf(
  c: Context,
  body: { keyword?: string; apkChannel?: string; gclid?: string; wbraid?: string; gaCid?: string },
): Attribution {
  const entries = Object.entries({
    trackId: trackIdOf(c),
    keyword: body.keyword,
    channel: body.apkChannel,
    gclid: body.gclid,
    wbraid: body.wbraid,
    gaCid: body.gaCid,
  }).filter(([, v]) => !!v);
  return Object.fromEntries(entries) as Attribution;
}
