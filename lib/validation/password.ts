import { z } from 'zod/mini';

/**
 * Password policy (after NIST SP 800-63B): 8 to 64 characters (code points, so emoji count once), any
 * characters including inner spaces, no composition rules, no leading or trailing spaces (a copy-paste accident).
 * The check against common passwords runs on the server (its list is large).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

/** Length of a password in characters (Unicode code points). */
export function passwordLength(value: string): number {
  return [...value].length;
}

export const passwordField = z.string({ error: 'Validation.passwordRequired' }).check(
  z.minLength(1, 'Validation.passwordRequired'),
  z.refine((v) => v === v.trim(), 'Validation.passwordSpaces'),
  z.refine((v) => passwordLength(v) >= PASSWORD_MIN && passwordLength(v) <= PASSWORD_MAX, 'Validation.passwordLength'),
);

/** A reset code: 6 digits (docs/rules.md#validation's messages). */
export const codeField = z
  .string({ error: 'Validation.codeRequired' })
  .check(
    z.trim(),
    z.minLength(1, 'Validation.codeRequired'),
    z.regex(/^\d+$/, 'Validation.codeNumeric'),
    z.length(6, 'Validation.codeLength'),
  );
