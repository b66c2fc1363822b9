import 'server-only';
import type { Tx } from '../../db/client';
import type { Order, Withdrawal } from '../../db/schema';
import { env } from '../../env';
import type { Acknowledgement } from '../../../lib/contracts/withdraw';
import { formatMoney } from '../money';
import { emailDateTime, queueEmail } from '../messaging';

// The acknowledgement of a withdrawal (Directive 2011/83/EU Art. 11a(3)): e-mailed on a durable medium when the
// withdrawal is recorded (./withdrawals.ts `finishWithdrawal`) and shown on the page, with the date and time in UTC and
// in the buyer's own zone. Texts: messages/*.json `Email.withdrawn*` and `Withdraw`.

/** "24 November 2026 at 15:05:09 CET (Europe/Madrid)": the instant in `zone`, as `locale` writes it. */
export function zonedDateTime(date: Date, locale: string, zone: string): string {
  const written = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'long',
    timeZone: zone,
  }).format(date);
  return `${written} (${zone})`;
}

/**
 * The acknowledgement on a durable medium (Art. 11a(3)): the contract (product, order reference, number, payment
 * date), the date and time of the withdrawal in UTC and in the buyer's zone, and the refund. Texts:
 * messages/*.json `Email.withdrawn*`.
 */
export async function queueAcknowledgement(tx: Tx, order: Order, w: Withdrawal): Promise<string> {
  const locale = order.locale;
  const utc = emailDateTime(w.withdrawnAt, locale);
  return queueEmail(tx, {
    to: order.email,
    template: 'withdrawal-confirmed',
    locale,
    params: {
      order: order.reference,
      phone: order.phoneE164,
      paidAt: emailDateTime(order.paidAt!, locale),
      amount: formatMoney(order.amountMinor, order.currency, locale),
      date: utc,
      local: w.timeZone ? zonedDateTime(w.withdrawnAt, locale, w.timeZone) : utc,
      refund: formatMoney(w.refundMinor, w.currency, locale),
      refundMinor: w.refundMinor,
      method: order.paymentMethod,
      rule: w.rule,
    },
  });
}

/** The acknowledgement as the page shows it: ISO instant, both written forms, the contract and the refund. */
export function acknowledgementView(w: Withdrawal, order: Order, lang: string, repeated: boolean): Acknowledgement {
  return {
    reference: order.reference,
    product: env().NEXT_PUBLIC_PRODUCT_NAME,
    at: w.withdrawnAt.toISOString(),
    atUtc: emailDateTime(w.withdrawnAt, lang),
    atLocal: w.timeZone ? zonedDateTime(w.withdrawnAt, lang, w.timeZone) : null,
    timeZone: w.timeZone,
    rule: w.rule,
    refund: formatMoney(w.refundMinor, w.currency, lang),
    refundMinor: w.refundMinor,
    method: order.paymentMethod,
    repeated,
  };
}
