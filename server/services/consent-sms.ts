import 'server-only';
import { SegmentedMessage } from 'sms-segments-calculator';
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
 * The consent SMS in `locale` (en-PH uses en), naming who asks (issue 13 §2: "Anna (your sister) asks for this phone's
 * location via Chamspy…"), the service, and the link where the owner shares or declines. Requests made before a
 * requester name was asked (`requesterName` null) get the older wording ("someone asks"). The texts are written in each
 * language's correct orthography (issue 13 §14): English and Indonesian fit GSM-7, Spanish accents need UCS-2;
 * `smsSegments` tells how many parts a text is sent in (tested per text and language).
 */
export function consentSmsText(
  locale: string,
  product: string,
  link: string,
  text: SmsTextId = 'standard',
  requesterName: string | null = null,
): string {
  const language = pickLanguage(locale);
  return requesterName
    ? translate(language, `Sms.${text}`, { product, link, requester: requesterName })
    : translate(language, `Sms.${text}Unnamed`, { product, link });
}

/**
 * The encoding and number of parts an SMS of `text` is sent in (GSM 03.38: 160 GSM-7 characters or 70 UCS-2 code
 * units in one part, 153 / 67 per part when split), as Twilio's segment calculator counts them.
 */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  const calc = new SegmentedMessage(text, 'auto');
  return { encoding: calc.encodingName, segments: calc.segmentsCount };
}
