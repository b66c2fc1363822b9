import 'server-only';

/** Formats integer minor units of an ISO 4217 currency for `locale`, e.g. (99, 'USD', 'en') → '$0.99'. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 10 ** digits);
}
