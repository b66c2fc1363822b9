import 'server-only';
import { pickLanguage, translate } from '../i18n';

/** Locales the consent SMS is written in, and their URL prefixes (SPEC §2). */
const PREFIX: Record<string, string> = { en: '', id: '/id', es: '/es', 'en-PH': '/ph' };

/** Spanish-speaking regions (ISO 3166-1) whose numbers get the Spanish SMS. */
const SPANISH = new Set('ES MX AR CO PE VE CL EC GT CU BO DO HN PY SV NI CR PA UY PR GQ'.split(' '));

/** The target's language guess from the number's country (ISSUE 5: the buyer may override it later). */
export function localeForCountry(country: string | null | undefined): string {
  if (country === 'ID') return 'id';
  if (country === 'PH') return 'en-PH';
  if (country && SPANISH.has(country)) return 'es';
  return 'en';
}

/**
 * The consent link: `<origin><prefix>/location/?c=<code>` (the trailing slash of our routes saves the owner a
 * redirect).
 */
export function consentLink(origin: string, locale: string, code: string): string {
  return `${origin.replace(/\/$/, '')}${PREFIX[locale] ?? ''}/location/?c=${encodeURIComponent(code)}`;
}

/** The consent SMS texts a buyer may choose from (messages/*.json, namespace `Sms`). */
export const SMS_TEXTS = ['standard', 'contact'] as const;
export type SmsTextId = (typeof SMS_TEXTS)[number];

/**
 * The consent SMS in `locale` (en-PH uses en): names the service, says the link shows who asks and lets the owner
 * share or decline. The texts use GSM-7 characters only, so with a link of up to ~75 characters they fit one
 * 160-character segment (tested for every text and language).
 */
export function consentSmsText(locale: string, product: string, link: string, text: SmsTextId = 'standard'): string {
  return translate(pickLanguage(locale), `Sms.${text}`, { product, link });
}
