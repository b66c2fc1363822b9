import { z } from 'zod';
import { LIMITS } from '../validation/schemas';
import { phoneCountry, phoneInput } from './phone';
import {
  normalizeOwnerNote,
  normalizeRequesterName,
  ownerNoteProblem,
  requesterNameProblem,
} from '../validation/requester-name';
import { prototypeOf } from '../validation/skeleton';
import { normalizeUsername, usernameProblem } from '../validation/username';

/**
 * Fields that several request bodies share (docs/decisions/0010-one-contract-per-payload.md): the API's zod schemas
 * of them, with the message keys (`Validation.*`) a refusal answers (422, server/api/validation.ts). The browser's
 * forms check the same rules with zod/mini (lib/validation/schemas.ts) to keep their bundle small.
 */

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
export function byRule(problemOf: (value: string) => string | null) {
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

/**
 * What an order and a new location request both ask, to spread into their bodies: the number (parsed by the route
 * with `country`), who asks and the optional note to the owner. The order of the keys is the order in which a body's
 * problems are checked (the API answers the first).
 */
export const askFields = {
  phone: phoneInput,
  requesterName: requesterNameBody,
  note: ownerNoteBody,
  country: phoneCountry,
};
