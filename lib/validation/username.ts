/**
 * The username of a reverse username lookup: 1–64 characters (Unicode code points) after trimming,
 * from the characters the WhatsMyName data set's own known accounts use — letters, digits, `.`, `_`, `-` and single
 * inner spaces — with at least one letter or digit, and never an e-mail address or a phone number (the lookup is for
 * public profile names, not a way to trace a person's address or number). The letter or digit keeps every name, and
 * what remains of it after a site strips its `strip_bad_char` characters (`.`, `-`, `@`), from being a URL dot
 * segment: `..` in `https://site.example/t/x/{account}/profile` would be requested as `https://site.example/t/profile`
 * (URL Standard, path state), another page than the site's entry describes.
 */
export const USERNAME = { min: 1, max: 64 } as const;

const ALLOWED = /^[\p{L}\p{M}\p{N}._-]+(?: [\p{L}\p{M}\p{N}._-]+)*$/u;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
/** Something dialled: digits with the usual separators, at least 7 digits (the shortest national numbers). */
const PHONE = /^\+?[\d\s().-]+$/u;
/** A letter or a digit: names of only dots, hyphens, underscores (and marks) are refused. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** `value` as looked up: trimmed. */
export function normalizeUsername(value: string): string {
  return value.trim();
}

/**
 * The message key (`Validation.username*`) for what is wrong with `value`, or null when it can be looked up. Checked
 * the same way by the page and the API (`POST /usernameLookup`).
 */
export function usernameProblem(value: string): string | null {
  const name = normalizeUsername(value);
  if (!name) return 'Validation.usernameRequired';
  if (EMAIL.test(name)) return 'Validation.usernameEmail';
  if (PHONE.test(name) && (name.match(/\d/g) ?? []).length >= 7) return 'Validation.usernamePhone';
  if ([...name].length > USERNAME.max) return 'Validation.usernameLength';
  if (!ALLOWED.test(name)) return 'Validation.usernameChars';
  if (!LETTER_OR_DIGIT.test(name)) return 'Validation.usernameLetters';
  return null;
}
