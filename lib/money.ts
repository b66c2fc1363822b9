/**
 * Money as people read it, from integer minor units of an ISO 4217 currency: shared by the server (prices, e-mails,
 * receipts, API texts) and the browser (the operator console), so that every amount is formatted one way.
 */

/** Formatters by `locale|currency`. Building an Intl.NumberFormat costs tens of µs, formatting with one ~1 µs. */
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A currency formatter for `locale` and the ISO 4217 `currency`, built once and reused (building them
 * per request was the largest single cost of `GET /portal/priceSetup` under load). Bounded: the cache starts over
 * past 200 pairs (4 locales × a few currencies in practice). Throws RangeError for an invalid currency code.
 * English (`en`, `en-PH`) is formatted as World English (CLDR `en-001`), which writes dollars with their country —
 * US$0.99, not a bare $ that a visitor outside the US could read as their own dollar or peso; Spanish and Indonesian
 * already write US$. Other currencies keep their usual sign (€, ₱, Rp).
 */
export function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (!format) {
    if (formatters.size >= 200) formatters.clear();
    const tag = locale === 'en' || locale.startsWith('en-') ? 'en-001' : locale;
    format = new Intl.NumberFormat(tag, { style: 'currency', currency });
    formatters.set(key, format);
  }
  return format;
}

const digitsByCurrency = new Map<string, number>();

/** Decimal digits of `currency`'s minor unit (ISO 4217 exponent): 2 for USD, 0 for JPY. Remembered per currency. */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = currencyFormat('en', currency).resolvedOptions().maximumFractionDigits ?? 2;
    if (digitsByCurrency.size >= 200) digitsByCurrency.clear();
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** Formats integer minor units of an ISO 4217 currency for `locale`, e.g. (99, 'USD', 'en') → 'US$0.99'. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  return currencyFormat(locale, currency).format(minor / 10 ** minorDigits(currency));
}

/**
 * Integer minor units of `currency` as a decimal string in major units with the currency's own number of decimals
 * (ISO 4217 exponent, `minorDigits`), without rounding through floating point: (50, 'USD') → '0.50', (1999, 'EUR') →
 * '19.99', (15000, 'IDR') → '15000', (-5, 'USD') → '-0.05'. For files and APIs read by programs; people read
 * `formatMoney`. Throws RangeError for an invalid currency code.
 */
export function decimalAmount(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const units = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  return digits ? `${sign}${units.slice(0, -digits)}.${units.slice(-digits)}` : `${sign}${units}`;
}
