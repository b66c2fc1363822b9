import creditCardType from 'credit-card-type';

/**
 * Formatting of the card form as the buyer types (the sandbox checkout, components/payment/checkout.tsx),
 * so that a phone's number pad, which has no "/" or space, is enough: digits in, the separators put in for them.
 */

/** The longest card number of any scheme (ISO/IEC 7812: up to 19 digits). */
const MAX_PAN_DIGITS = 19;

/**
 * A card number as typed (any characters) → its digits grouped as its scheme prints them (Visa and most: 4-4-4-4;
 * American Express 4-6-5), at most the scheme's longest length, and the scheme's name when the first digits tell it
 * (`credit-card-type`, Braintree's table of issuer ranges), else null.
 */
export function formatCardNumber(input: string): { value: string; brand: string | null } {
  const digits = input.replace(/\D/g, '');
  const [type] = digits ? creditCardType(digits) : [];
  const max = type ? Math.max(...type.lengths) : MAX_PAN_DIGITS;
  const kept = digits.slice(0, max);
  const gaps = type?.gaps ?? [4, 8, 12, 16];
  let value = '';
  for (let i = 0; i < kept.length; i++) {
    if (i > 0 && gaps.includes(i)) value += ' ';
    value += kept[i];
  }
  return { value, brand: type?.niceType ?? null };
}

/**
 * An expiry as typed → `MM/YY`: digits only are enough ("1230" → "12/30"); a first digit 2–9 can only be a month
 * 02–09 and gets its 0 ("4" → "04"); the "/" is put in once a third digit comes, so deleting back over it never gets
 * stuck. Four digits at most.
 */
export function formatExpiry(input: string): string {
  let digits = input.replace(/\D/g, '');
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
