import 'server-only';
import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A random token of `bytes` bytes (CSPRNG) in base64url: 32 bytes = 256 bits for sessions, 16 for codes. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** SHA-256 hex digest; how tokens and consent codes are stored (docs/rules.md#security). */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Crockford's base32 alphabet (https://www.crockford.com/base32.html): digits and upper-case letters without I, L, O
 * and U, so a reference read aloud or copied by hand (an order's, billing/order-reference.ts; a safety-centre request's,
 * safety/overview.ts) has no 1/I/L or 0/O to confuse.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A generated password of `length` characters from an unambiguous alphabet, drawn with a CSPRNG. */
export function generatePassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return out;
}

/** Masks an e-mail for the phone owner: `john@gmail.com` → `j•••@gmail.com` (ASCII `***` with `ascii`). */
export function maskEmail(email: string, ascii = false): string {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 1)}${ascii ? '***' : '•••'}@${domain ?? ''}`;
}
