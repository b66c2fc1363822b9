import { describe, expect, it } from 'vitest';
import { money } from '@/components/ops/parts';
import { formatMoney } from '@/lib/money';

// The operator console writes amounts with the currency's own minor unit (ISO 4217 exponent), as the rest of the
// site does: it shares lib/money.ts.
describe("the operator console's amounts", () => {
  it('divides by the minor unit of each currency, not always by 100', () => {
    expect(money(99, 'USD')).toBe('US$0.99');
    expect(money(500, 'JPY')).toBe('JP¥500');
    expect(money(1500, 'KWD')).toBe(formatMoney(1500, 'KWD', 'en'));
    expect(money(1500, 'KWD')).toMatch(/1\.500/);
    expect(money(4900, 'PHP')).toBe('₱49.00');
  });
});
