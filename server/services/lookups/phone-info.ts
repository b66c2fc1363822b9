import 'server-only';
import { carrier, geocoder, timezones } from 'libphonenumber-geo-carrier';
import { Metadata } from 'libphonenumber-js/max';
import type { PhoneInfo } from '../../../lib/contracts/lookups';
import { phoneNumberOf } from '../../../lib/contracts/e164';
import type { E164 } from '../../../lib/contracts/phone';
import { languageOf } from '../../../i18n/routing';

// What a phone number itself tells, from the numbering plan (ITU-T E.164; libphonenumber's metadata and its
// geocoder and carrier data): country, calling code, line type, original carrier, region, time zones. Never a position
// (docs/rules.md "The product": before payment the buyer sees only this, labelled as such).

const callingCodes = (
  new Metadata() as unknown as { countryCallingCodes(): Record<string, string[]> }
).countryCallingCodes();

/**
 * Numbering-plan facts for `e164` (parsed where it came in, lib/contracts/e164.ts) in `lang` (en, id, es): E.164,
 * country (ISO code and localized name), calling code, line type, original carrier (mobiles), region/city (fixed
 * lines, where the plan has one), time zones.
 */
export async function phoneInfo(e164: E164, lang: string): Promise<PhoneInfo> {
  const number = phoneNumberOf(e164);
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
