import 'server-only';
import { carrier, geocoder, timezones } from 'libphonenumber-geo-carrier';
import {
  Metadata,
  ParseError,
  getCountries,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max';
import type { PhoneInfo } from '../../lib/api/types';
import { languageOf } from '../../i18n/routing';

/** Why a number was rejected: docs/rules.md#validation's error kinds. */
export type PhoneErrorKind = 'invalid_country_code' | 'too_short' | 'too_long' | 'not_a_number' | 'invalid';

export class PhoneParseError extends Error {
  constructor(readonly kind: PhoneErrorKind) {
    super(kind);
    this.name = 'PhoneParseError';
  }
}

/**
 * The message key for a number that did not parse (`Validation.*`): a national number (no leading +) typed where no
 * country could be known (`defaultCountry` absent: the visitor's IP country and the locale's are both unknown, see
 * lib/phone-country.ts) asks for the country code with an example in the reader's language
 * (`Validation.phoneAddCountryCode`, "Add the country code, e.g. +44 7400 123456"); every other error keeps `otherwise`
 * (the route's own wording: by kind, or the generic one).
 */
export function phoneErrorKey(
  error: PhoneParseError,
  input: string,
  defaultCountry: string | undefined,
  otherwise: string,
): string {
  const national = !/^[\s(]*[+＋]/.test(input);
  return error.kind === 'invalid_country_code' && national && !isPhoneCountry(defaultCountry)
    ? 'Validation.phoneAddCountryCode'
    : otherwise;
}

const countries = new Set<string>(getCountries());
const callingCodes = (
  new Metadata() as unknown as { countryCallingCodes(): Record<string, string[]> }
).countryCallingCodes();

/** True when `code` is an ISO 3166-1 alpha-2 region libphonenumber knows. */
export function isPhoneCountry(code: string | undefined): code is CountryCode {
  return !!code && countries.has(code.toUpperCase());
}

/**
 * Parses and validates `input` (docs/rules.md#validation: ≤ 250 characters, 2–17 digits, extensions stripped, digits of other scripts
 * recognised, a leading + unless `defaultCountry` is given). Accepts numbers of a possible length for their calling
 * code even when the plan does not list the range as assigned (e.g. Ofcom's +44 7700 900xxx), which `isValid()`
 * then reports. Throws PhoneParseError with the kind.
 */
export function parsePhone(input: string, defaultCountry?: string): PhoneNumber {
  const options = {
    defaultCountry: isPhoneCountry(defaultCountry) ? (defaultCountry.toUpperCase() as CountryCode) : undefined,
  };
  let parsed: PhoneNumber;
  try {
    parsed = parsePhoneNumberWithError(input, options);
  } catch (error) {
    if (error instanceof ParseError) {
      const kinds: Record<string, PhoneErrorKind> = {
        INVALID_COUNTRY: 'invalid_country_code',
        TOO_SHORT: 'too_short',
        TOO_LONG: 'too_long',
        NOT_A_NUMBER: 'not_a_number',
      };
      throw new PhoneParseError(kinds[error.message] ?? 'invalid');
    }
    throw error;
  }
  if (!parsed.isPossible()) {
    const length = validatePhoneNumberLength(input, options);
    throw new PhoneParseError(length === 'TOO_SHORT' ? 'too_short' : length === 'TOO_LONG' ? 'too_long' : 'invalid');
  }
  return parsed;
}

/**
 * Numbering-plan facts for `input` in `lang` (en, id, es): E.164, country (ISO code and localized name), calling
 * code, line type, original carrier (mobiles), region/city (fixed lines, where the plan has one), time zones.
 * Throws PhoneParseError for invalid input.
 */
export async function phoneInfo(input: string, lang: string, defaultCountry?: string): Promise<PhoneInfo> {
  const number = parsePhone(input, defaultCountry);
  const locale = languageOf(lang);
  const [carrierName, region, zones] = await Promise.all([
    carrier(number, locale as 'en').catch(() => null),
    geocoder(number, locale as 'en').catch(() => null),
    timezones(number).catch(() => null),
  ]);
  // A number outside the assigned ranges has no country of its own: name the calling code's main country.
  const country = number.country ?? callingCodes[number.countryCallingCode]?.[0];
  const countryCode = country ?? '001';
  const countryName = country ? (new Intl.DisplayNames([locale], { type: 'region' }).of(country) ?? country) : '';
  return {
    e164: number.number,
    valid: number.isValid(),
    countryCode,
    countryName,
    callingCode: `+${number.countryCallingCode}`,
    nationalNumber: number.nationalNumber,
    international: number.formatInternational(),
    lineType: number.getType() ?? 'UNKNOWN',
    carrier: carrierName || null,
    // Google's geocoder names the country for numbers with no finer region; that adds nothing.
    region: region && region !== countryName && region !== country ? region : null,
    timeZones: (zones ?? []).filter((z) => z !== 'Etc/Unknown'),
  };
}
