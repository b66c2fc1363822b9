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
  const problem = userTextProblem(value, REQUESTER_NAME);
  return problem && `Validation.requesterName${problem}`;
}

/**
 * The note to the owner (issue 15 §3): optional plain text of at most 140 characters shown on the consent page under
 * the requester's name, never in the SMS. Held to the requester name's rules (no links, phone numbers or control
 * characters), since it reaches a stranger with our name on the page.
 */
export const OWNER_NOTE = { min: 0, max: 140, maxDigits: 4 } as const;

/**
 * The message key (`Validation.note*`) for what is wrong with a note to the owner, or null when it is valid; an empty
 * or blank note is valid (no note). Checked the same way by the browser forms and the API.
 */
export function ownerNoteProblem(value: string): string | null {
  const problem = userTextProblem(value.replace(/\r?\n/g, ' '), OWNER_NOTE);
  return problem && `Validation.note${problem}`;
}

/** A note as stored and shown: line breaks typed in the text area become spaces, whitespace collapsed; null when empty. */
export function normalizeOwnerNote(value: string): string | null {
  return normalizeRequesterName(value) || null;
}

/**
 * What is wrong with a piece of user text that reaches the phone's owner, by the rule `limits` (lengths in Unicode
 * code points after `normalizeRequesterName`): `Invalid` (control characters), `Required`, `Length`, `Link` or
 * `Phone` (more than `maxDigits` digits); null when valid.
 */
function userTextProblem(
  value: string,
  limits: { min: number; max: number; maxDigits: number },
): 'Invalid' | 'Required' | 'Length' | 'Link' | 'Phone' | null {
  if (CONTROL.test(value)) return 'Invalid';
  const text = normalizeRequesterName(value);
  if (!text) return limits.min > 0 ? 'Required' : null;
  const length = [...text].length;
  if (length < limits.min || length > limits.max) return 'Length';
  if (LINK.test(text)) return 'Link';
  if ((text.match(/\p{Nd}/gu) ?? []).length > limits.maxDigits) return 'Phone';
  return null;
}
