import 'server-only';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { createHash } from 'node:crypto';
import { PASSWORD_MAX, PASSWORD_MIN, passwordLength } from '../../../lib/validation/password';
import { log } from '../../observability/log';
import { passwordRangeProvider } from '../../providers/breaches';

// The password policy and its storage (docs/decisions/0002-passwords-8-to-64-characters.md; docs/security.md
// "Pwned Passwords"): 8 to 64 characters, not a common password nor one seen in a breach (the Pwned Passwords range
// API), hashed with argon2id at OWASP's minimum parameters (OWASP Password Storage Cheat Sheet).

/** How long a generated temporary password works (ms): 7 days. */
export const TEMP_PASSWORD_TTL_MS = 7 * 24 * 3600 * 1000;

let common: Set<string> | undefined;

/** True when `password` (case-insensitively) is in zxcvbn-ts's list of ~49,000 common passwords. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}

/**
 * Why `password` breaks the policy, as a message key, or null when it is acceptable: required, no leading or trailing
 * spaces, 8 to 64 characters, not a common password.
 */
export function passwordProblem(password: string): string | null {
  if (!password) return 'Validation.passwordRequired';
  if (password !== password.trim()) return 'Validation.passwordSpaces';
  const length = passwordLength(password);
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'Validation.passwordLength';
  if (isCommonPassword(password)) return 'Validation.passwordCommon';
  return null;
}

/**
 * Why a password being chosen (set, changed or reset) is refused, as a message key, or null: the policy
 * of `passwordProblem` first, then Pwned Passwords' range API — only the first 5 hex characters of the password's
 * SHA-1 leave the server, the rest is compared here — refusing a password seen in a breach
 * (`Validation.passwordBreached`). When the service is unreachable or off (`PWNED_PASSWORDS_URL=off`) the local list
 * of common passwords, already checked by the policy, is the only list, and a warning is logged.
 */
export async function newPasswordProblem(password: string): Promise<string | null> {
  const problem = passwordProblem(password);
  if (problem) return problem;
  const provider = passwordRangeProvider();
  if (!provider) return null;
  const digest = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  try {
    const suffixes = await provider.suffixes(digest.slice(0, 5));
    return (suffixes[digest.slice(5)] ?? 0) > 0 ? 'Validation.passwordBreached' : null;
  } catch (error) {
    log().warn(
      { err: (error as Error).message },
      'Pwned Passwords unreachable: the local common-password list applies',
    );
    return null;
  }
}

/** argon2id hash with the library's defaults (m = 19 MiB, t = 2, p = 1: OWASP's minimum). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A valid argon2id hash of a random password, verified against when the account does not exist (same timing). */
let decoy: Promise<string> | undefined;

/**
 * Verifies `password` against `passwordHash`; with no hash (unknown account) it still spends one verification so
 * the answer takes as long either way. argon2 reads the whole password: no 72-byte truncation as in bcrypt.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hash(crypto.randomUUID());
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
