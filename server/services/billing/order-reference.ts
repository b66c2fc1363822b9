import 'server-only';
import { randomInt } from 'node:crypto';
import { CROCKFORD_ALPHABET } from '../tokens';

// The order reference people read (docs/rules.md "Entities"): `CH-` and six Crockford base32 characters, never a key.

/** The shape of an order reference: `CH-` then 4 and 2 Crockford characters (32⁶ ≈ 1.07 × 10⁹ values). */
export const ORDER_REFERENCE = /^CH-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

/**
 * A new random order reference such as `CH-7K4M-2Q`: what receipts, e-mails and support conversations name, in place
 * of the long random order code (which stays the key of the checkout and status URLs). Uniqueness is the database's
 * (`orders_reference_key`): `createOrder` draws again when one is taken. Not a secret and never accepted as a key.
 */
export function newOrderReference(): string {
  let body = '';
  for (let i = 0; i < 6; i++) body += CROCKFORD_ALPHABET[randomInt(CROCKFORD_ALPHABET.length)];
  return `CH-${body.slice(0, 4)}-${body.slice(4)}`;
}
