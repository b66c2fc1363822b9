import { z } from 'zod';
import { LIMITS } from '../validation/schemas';

/**
 * The phone number's contract (docs/decisions/0010-one-contract-per-payload.md): what a request body carries (a typed
 * string) and what the server passes on once it has parsed it (`E164`). This module has no numbering plan, so the
 * browser may import it; the parser is `parseE164` in lib/contracts/e164.ts (libphonenumber-js `max` metadata).
 */

/** A number the server answers with: E.164 (it parsed it when it came in). */
export const e164Output = z.string().brand<'E164'>().meta({ description: 'E.164, e.g. +34612345678' });

/**
 * A phone number in E.164 (ITU-T E.164: `+`, country calling code, national number, at most 15 digits), e.g.
 * `+34612345678`. Branded: only `parseE164` (lib/contracts/e164.ts) makes one from typed input, and database
 * columns that hold one are typed with it (server/db/schema), so services and the SMS/outbox code never parse a string
 * again nor wonder whether it was checked.
 */
export type E164 = z.infer<typeof e164Output>;

/** Why a typed number was refused (docs/rules.md#validation's error kinds); `kind` of the API's 400 answer. */
export type E164ErrorKind = 'invalid_country_code' | 'too_short' | 'too_long' | 'not_a_number' | 'invalid';

/**
 * A refused number: its `kind`, and `needsCountryCode` when it was typed as a national number (no leading +) where no
 * country could be known (neither the visitor's IP country nor the locale's, lib/phone-country.ts), so the visitor
 * must add the country code.
 */
export type E164Error = { kind: E164ErrorKind; needsCountryCode: boolean };

/** What `parseE164` returns: the number, or why it is refused. */
export type E164Result = { ok: true; value: E164 } | { ok: false; error: E164Error };

/**
 * The one mapping of a refused number to its message key in messages/ (`Validation.*`), used by every route that
 * takes a number: `phoneAddCountryCode` ("Add the country code at the start, e.g. +44 7400 123456 …") when the
 * visitor must add it, else the kind's wording ("The format of phone number is invalid. (too short)"), else the
 * generic `phoneInvalid`. The API answers it as 400 with `kind` (server/api/phone.ts).
 */
export function e164ErrorKey(error: E164Error): string {
  if (error.needsCountryCode) return 'Validation.phoneAddCountryCode';
  return E164_KIND_KEYS[error.kind] ?? 'Validation.phoneInvalid';
}

const E164_KIND_KEYS: Partial<Record<E164ErrorKind, string>> = {
  invalid_country_code: 'Validation.phoneInvalidCountry',
  too_short: 'Validation.phoneTooShort',
  too_long: 'Validation.phoneTooLong',
};

/**
 * A phone number as a request body carries it, before parsing (docs/rules.md#validation): required, trimmed, at most
 * 250 characters. The route then parses it with the body's `country` (`e164Of`, server/api/phone.ts).
 */
export const phoneInput = z
  .string('Validation.phoneRequired')
  .trim()
  .min(1, 'Validation.phoneRequired')
  .max(LIMITS.phoneMax, 'Validation.phoneTooLong')
  .meta({ description: 'international with +, or national with `country`' });

/** The country a national number is read in (ISO 3166-1 alpha-2, e.g. `ES`); optional. */
export const phoneCountry = z
  .string()
  .regex(/^[A-Za-z]{2}$/)
  .optional();
