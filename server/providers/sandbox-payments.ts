import 'server-only';
import creditCardType from 'credit-card-type';

/** Outcome of a sandbox charge, following Stripe's test-card semantics (Stripe docs, "Testing"). */
export type SandboxCharge =
  | { outcome: 'paid'; renewals: 'succeeds' | 'fails' }
  | { outcome: 'requires_action'; renewals: 'fails' }
  | { outcome: 'declined'; reason: 'card_declined' | 'insufficient_funds' | 'not_a_test_card' };

/** Stripe's test cards the sandbox knows; any other number is refused as it would be in Stripe's test mode. */
const TEST_CARDS: Record<string, SandboxCharge> = {
  '4242424242424242': { outcome: 'paid', renewals: 'succeeds' },
  '4000000000000002': { outcome: 'declined', reason: 'card_declined' },
  '4000000000009995': { outcome: 'declined', reason: 'insufficient_funds' },
  // Attaches and pays now; later (off-session) charges are declined.
  '4000000000000341': { outcome: 'paid', renewals: 'fails' },
  // 3-D Secure required on every transaction, so off-session renewals fail too.
  '4000002760003184': { outcome: 'requires_action', renewals: 'fails' },
};

/** Luhn checksum of a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Charges a card in the sandbox. `cardNumber` is digits only (spaces removed by validation). The number is used only
 * to pick the outcome; only its last four digits and its scheme (`sandboxCardBrand`) are kept.
 */
export function sandboxCharge(cardNumber: string): SandboxCharge {
  return TEST_CARDS[cardNumber] ?? { outcome: 'declined', reason: 'not_a_test_card' };
}

/** `credit-card-type`'s scheme ids → Stripe's `card.brand` codes (lib/card-brand.ts names them). */
const STRIPE_BRAND: Record<string, string> = {
  'american-express': 'amex',
  'diners-club': 'diners',
  discover: 'discover',
  elo: 'elo',
  hiper: 'hiper',
  hipercard: 'hipercard',
  jcb: 'jcb',
  maestro: 'maestro',
  mastercard: 'mastercard',
  mir: 'mir',
  unionpay: 'unionpay',
  visa: 'visa',
};

/**
 * The scheme of a card number (digits), as Stripe names it, from its issuer range (`credit-card-type`, Braintree's
 * table); null when the range names no scheme or several. What the sandbox keeps beside the last four digits.
 */
export function sandboxCardBrand(cardNumber: string): string | null {
  const types = creditCardType(cardNumber);
  return types.length === 1 ? (STRIPE_BRAND[types[0].type] ?? null) : null;
}
