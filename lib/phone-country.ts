import type { CountryCode } from 'libphonenumber-js/min';
import type { AppLocale } from './routing/rules';

/**
 * The country each locale implies for national numbers (ISO 3166-1 alpha-2): `es` → ES, `id` → ID, `en-PH` → PH.
 * English (`en`, served worldwide) implies none. The Spanish pages' country is Spain because docs/rules.md#the-product markets them there.
 */
export const LOCALE_COUNTRY: Partial<Record<AppLocale, string>> = { es: 'ES', id: 'ID', 'en-PH': 'PH' };

/**
 * The countries a national number typed by this visitor is tried against, in order: the IP's country (`ipCountry`,
 * from `GET /other/ipInfo`, when the offline database knows it) first, then the locale's (`LOCALE_COUNTRY`). Codes are
 * upper-cased and deduplicated; an empty list means no country can be known (the visitor must type + and the code).
 */
export function phoneCountries(locale: AppLocale, ipCountry: string | null | undefined): string[] {
  const list = [ipCountry, LOCALE_COUNTRY[locale]]
    .filter((c): c is string => !!c && /^[A-Za-z]{2}$/.test(c))
    .map((c) => c.toUpperCase());
  return [...new Set(list)];
}

/** True when `input` starts with a plus sign (ASCII or full-width), i.e. it carries its own country calling code. */
export function isInternational(input: string): boolean {
  return /^[\s(]*[+＋]/.test(input);
}

/**
 * The country to parse `input` against (ISO code), or null when none can be known. A number typed with + needs none
 * but gets the first candidate anyway (harmless: libphonenumber ignores the default country then). A national number
 * is tried against each of `phoneCountries(locale, ipCountry)` in order and the numbering plan decides: the first
 * country where it is a valid number, else the first where its length is possible, else the first candidate (so the
 * server's error names the right country's rule). E.g. `612345678` on `/es/` with a Mexican IP is Spanish: it is not
 * a possible Mexican number (10 digits). libphonenumber-js (`min` metadata) is loaded on first use.
 */
export async function phoneCountryFor(
  input: string,
  locale: AppLocale,
  ipCountry: string | null | undefined,
): Promise<string | null> {
  const candidates = phoneCountries(locale, ipCountry);
  if (candidates.length <= 1 || isInternational(input)) return candidates[0] ?? null;
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/min');
  const parsed = candidates.map((c) => ({ c, n: parsePhoneNumberFromString(input, c as CountryCode) }));
  return parsed.find((p) => p.n?.isValid())?.c ?? parsed.find((p) => p.n?.isPossible())?.c ?? candidates[0];
}
