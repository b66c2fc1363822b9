import type { Locale } from '../i18n/routing';

/** Spanish-speaking regions (ISO 3166-1 alpha-2, Spanish an official or majority language) whose numbers get Spanish. */
const SPANISH = new Set('ES MX AR CO PE VE CL EC GT CU BO DO HN PY SV NI CR PA UY PR GQ'.split(' '));

/**
 * The language the phone's owner is written to, from the country of their number (the region of the E.164 number,
 * as libphonenumber-js gives it): `es` for Spanish-speaking countries, `id` for Indonesia, `en-PH` (English, with the
 * /ph/ pages) for the Philippines, `en` elsewhere and for an unknown country. The consent SMS and the link's pages use
 * it unless the buyer picks another language for a new request; never the buyer's own page language, which says
 * nothing about the owner. Pure.
 */
export function localeForCountry(country: string | null | undefined): Locale {
  if (country === 'ID') return 'id';
  if (country === 'PH') return 'en-PH';
  if (country && SPANISH.has(country)) return 'es';
  return 'en';
}
