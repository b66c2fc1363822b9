import 'server-only';
import { SegmentedMessage } from 'sms-segments-calculator';
import { DEFAULT_SMS_TEXT, SMS_TEXTS } from '../../../lib/contracts/locations';
import { localeUrl } from '../../../i18n/routing';
import { pickLanguage, translate } from '../../i18n';

// The consent SMS (docs/rules.md "SMS" and "Consent"): its texts, one of which the buyer chooses (messages/*.json
// `Sms`), in the owner's language from their number's country, never the buyer's page; the consent link; and its
// length in GSM-7 or UCS-2 segments (GSM 03.38), which the New request form previews.

// The owner's language from their number's country, shared with the New request form's preview.
export { localeForCountry } from '../../../lib/owner-language';

/**
 * The consent link: `<origin><prefix>/location/?c=<code>`, the prefix of `locale` from i18n/routing.ts (none for an
 * unknown locale; the trailing slash of our routes saves the owner a redirect).
 */
export function consentLink(origin: string, locale: string, code: string): string {
  return localeUrl(origin, locale, `/location/?c=${encodeURIComponent(code)}`);
}

/** The consent SMS texts a buyer may choose from (messages/*.json, namespace `Sms`; the list is the API contract's). */
export { DEFAULT_SMS_TEXT, SMS_TEXTS };
export type SmsTextId = (typeof SMS_TEXTS)[number];

/**
 * `id` when it is a text offered now, else DEFAULT_SMS_TEXT: a text since withdrawn (lib/contracts/locations.ts
 * `REMOVED_SMS_TEXTS`, e.g. `contact`) or unknown is never rendered, so old data still sends a valid SMS.
 */
export function offeredSmsText(id: string | null | undefined): SmsTextId {
  return (SMS_TEXTS as readonly string[]).includes(id ?? '') ? (id as SmsTextId) : DEFAULT_SMS_TEXT;
}

/**
 * The consent SMS in `locale` (en-PH uses en; the owner's language, see `localeForCountry`), naming who asks, the
 * service, and the link where the owner shares or declines. The requester's name is kept as the buyer wrote it
 * and quoted, so the owner reads it as a name someone typed, not as our words: plain double quotes in English and
 * Indonesian ("Anna (your sister)" asks for this phone's location via Chamspy…), which keep those texts in GSM-7, and
 * the angle quotes the Real Academia Española's Ortografía prefers in Spanish («Anna» pide la ubicación…), in a text
 * that is UCS-2 for its accents anyway. Requests made before a requester name was asked (`requesterName` null) get the
 * older wording ("someone asks"). A text no longer offered is rendered as DEFAULT_SMS_TEXT (`offeredSmsText`).
 * `smsSegments` tells how many parts a text is sent in (tested per text and language).
 */
export function consentSmsText(
  locale: string,
  product: string,
  link: string,
  text: SmsTextId = DEFAULT_SMS_TEXT,
  requesterName: string | null = null,
): string {
  const language = pickLanguage(locale);
  const id = offeredSmsText(text);
  return requesterName
    ? translate(language, `Sms.${id}`, { product, link, requester: requesterName })
    : translate(language, `Sms.${id}Unnamed`, { product, link });
}

/**
 * The encoding and number of parts an SMS of `text` is sent in (GSM 03.38: 160 GSM-7 characters or 70 UCS-2 code
 * units in one part, 153 / 67 per part when split), as Twilio's segment calculator counts them.
 */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  const calc = new SegmentedMessage(text, 'auto');
  return { encoding: calc.encodingName, segments: calc.segmentsCount };
}
