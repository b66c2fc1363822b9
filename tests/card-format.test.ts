import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry } from '@/lib/card-format';
import { cardFormSchema } from '@/lib/validation/schemas';

describe('card form formatting (lib/card-format.ts)', () => {
  it('turns digits typed on a number pad into a valid expiry, keystroke by keystroke', () => {
    let value = '';
    const seen: string[] = [];
    for (const key of '1230') {
      value = formatExpiry(value + key);
      seen.push(value);
    }
    expect(seen).toEqual(['1', '12', '12/3', '12/30']);
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('425')).toBe('04/25');
    expect(formatExpiry('12/305')).toBe('12/30');
    // Deleting back over the slash is not undone.
    expect(formatExpiry('12/')).toBe('12');
    expect(cardFormSchema.shape.expiry.safeParse(formatExpiry('1230')).success).toBe(true);
  });

  it('groups the number as its scheme prints it and names the scheme', () => {
    expect(formatCardNumber('4242424242424242')).toEqual({ value: '4242 4242 4242 4242', brand: 'Visa' });
    expect(formatCardNumber('378282246310005')).toEqual({ value: '3782 822463 10005', brand: 'American Express' });
    expect(formatCardNumber('5555-5555-5555-4444').brand).toBe('Mastercard');
    expect(formatCardNumber('37828224631000512').value).toBe('3782 822463 10005');
    expect(formatCardNumber('')).toEqual({ value: '', brand: null });
    expect(cardFormSchema.shape.cardNumber.safeParse(formatCardNumber('4242424242424242').value).success).toBe(true);
  });
});
