/**
 * The requester name a buyer gives (issue 13 §2): shown to the phone's owner on the consent page and in the consent
 * SMS ("Anna (your sister) asks for this phone's location via Chamspy"), so it is held to the rules of any user text
 * that reaches a stranger: 2–40 characters after trimming (counted in Unicode code points, so "Ана" is 3), inner
 * whitespace collapsed, and no control or bidirectional-override characters, no links or domain names and no phone
 * numbers (at most 4 digits), so the name cannot carry a phishing link or a call-back number into an SMS we send.
 */
export const REQUESTER_NAME = { min: 2, max: 40, maxDigits: 4 } as const;

/** C0/C1 controls, zero-width and bidirectional formatting characters (Unicode Cc and the Cf marks abused in spoofing). */
const CONTROL = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;
/** A URL scheme, `www.`, or a dotted name ending in a top-level-domain-like label (`example.com`, `bit.ly`). */
const LINK = /(?:[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[\p{L}\p{N}-]+\s*\.\s*[a-z]{2,}\b|@)/iu;

/** `value` trimmed with runs of whitespace made one space: the form stored and shown. */
export function normalizeRequesterName(value: string): string {
  return value.trim().replace(/\s+/gu, ' ');
}

/**
 * The message key (`Validation.*`) for what is wrong with `value`, or null when it is a valid requester name.
 * Checked the same way by the browser forms and the API (`POST /portal/order`, `POST /spyContent/phoneLocation`).
 */
export function requesterNameProblem(value: string): string | null {
  if (CONTROL.test(value)) return 'Validation.requesterNameInvalid';
  const name = normalizeRequesterName(value);
  if (!name) return 'Validation.requesterNameRequired';
  const length = [...name].length;
  if (length < REQUESTER_NAME.min || length > REQUESTER_NAME.max) return 'Validation.requesterNameLength';
  if (LINK.test(name)) return 'Validation.requesterNameLink';
  if ((name.match(/\p{Nd}/gu) ?? []).length > REQUESTER_NAME.maxDigits) return 'Validation.requesterNamePhone';
  return null;
}
