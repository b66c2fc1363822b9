import {
  ParseError,
  getCountries,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import type { E164, E164ErrorKind, E164Result } from './phone';

/**
 * The E.164 value object's parser (libphonenumber-js with its `max` metadata, so the server and tests import it; the
 * browser's forms only check presence and length, lib/validation/schemas.ts). A number is parsed once where it comes
 * in (the route, server/api/phone.ts); what is passed on is the branded `E164`.
 */

const countries = new Set<string>(getCountries());

/** True when `code` is an ISO 3166-1 alpha-2 region libphonenumber knows. */
export function isPhoneCountry(code: string | undefined): code is CountryCode {
  return !!code && countries.has(code.toUpperCase());
}

const PARSE_ERROR_KINDS: Record<string, E164ErrorKind> = {
  INVALID_COUNTRY: 'invalid_country_code',
  TOO_SHORT: 'too_short',
  TOO_LONG: 'too_long',
  NOT_A_NUMBER: 'not_a_number',
};

/**
 * Parses typed input into E.164 (docs/rules.md#validation: 2–17 digits, extensions stripped, digits of other scripts
 * recognised, a leading + unless `defaultCountry`, an ISO 3166-1 alpha-2 code, is given). Accepts numbers of a
 * possible length for their calling code even when the plan does not list the range as assigned (e.g. Ofcom's
 * +44 7700 900xxx); `phoneNumberOf(value).isValid()` tells those apart. Never throws: a refusal is
 * `{ ok: false, error: { kind, needsCountryCode } }` (lib/contracts/phone.ts maps it to a message key).
 */
export function parseE164(input: string, defaultCountry?: string): E164Result {
  const country = isPhoneCountry(defaultCountry) ? (defaultCountry.toUpperCase() as CountryCode) : undefined;
  const refuse = (kind: E164ErrorKind): E164Result => ({
    ok: false,
    error: { kind, needsCountryCode: kind === 'invalid_country_code' && !/^[\s(]*[+＋]/.test(input) && !country },
  });
  let parsed: PhoneNumber;
  try {
    parsed = parsePhoneNumberWithError(input, { defaultCountry: country });
  } catch (error) {
    if (error instanceof ParseError) return refuse(PARSE_ERROR_KINDS[error.message] ?? 'invalid');
    throw error;
  }
  if (!parsed.isPossible()) {
    const length = validatePhoneNumberLength(input, { defaultCountry: country });
    return refuse(length === 'TOO_SHORT' ? 'too_short' : length === 'TOO_LONG' ? 'too_long' : 'invalid');
  }
  return { ok: true, value: parsed.number as E164 };
}

/**
 * The numbering plan's view of a number already parsed (country, type, carrier lookups). `value` is E.164, so this
 * cannot fail.
 */
export function phoneNumberOf(value: E164): PhoneNumber {
  return parsePhoneNumberWithError(value);
}

/** The ISO country a number belongs to (null for satellite and other international networks, e.g. +881). */
export function e164Country(value: E164): string | null {
  return phoneNumberOf(value).country ?? null;
}
