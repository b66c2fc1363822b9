/**
 * Card schemes as Stripe names them (`payment_method.card.brand`, Stripe API reference "The PaymentMethod object") →
 * the name printed on receipts. Brand names are not translated. The sandbox stores the same codes
 * (server/providers/sandbox-payments.ts), so one table serves both providers.
 */
const CARD_BRAND_NAMES: Record<string, string> = {
  amex: 'American Express',
  cartes_bancaires: 'Cartes Bancaires',
  diners: 'Diners Club',
  discover: 'Discover',
  eftpos_au: 'eftpos',
  elo: 'Elo',
  hiper: 'Hiper',
  hipercard: 'Hipercard',
  interac: 'Interac',
  jcb: 'JCB',
  maestro: 'Maestro',
  mastercard: 'Mastercard',
  mir: 'Mir',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

/** The printed name of a stored card brand code; null for null, `unknown` or a code this table does not know. */
export function cardBrandName(code: string | null | undefined): string | null {
  return (code && CARD_BRAND_NAMES[code]) ?? null;
}
