import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * A number in international format for people to read: `+4915123456781` → `+49 1512 3456781`. Stored
 * and sent numbers stay E.164; this is for display only. Returns the input unchanged when it does not parse.
 */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
