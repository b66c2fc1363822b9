import 'server-only';
import type { Tx } from '../../db/client';
import type { Order } from '../../db/schema';
import { env } from '../../env';
import { cardBrandName } from '../../../lib/card-brand';
import { localeUrl } from '../../../i18n/routing';
import { formatMoney } from '../money';
import { emailDateTime, queueEmail } from '../messaging';

// The receipt of every charge (California's automatic-renewal law, Business and Professions Code section 17602 as
// amended by AB 2863: an acknowledgement that says how to cancel; PCI DSS for the card's last four only): its lines,
// the card, and the links to the cancel page and Billing.

/** One successful monthly charge (the trial's conversion included), as its receipt states it. Amounts in minor units of `currency`; times are instants. */
export type Charge = {
  order: Order;
  amountMinor: number;
  currency: string;
  /** When the money was taken. */
  chargedAt: Date;
  /** The next charge if the buyer does not cancel: the end of the period this charge paid for. */
  nextChargeAt: Date;
  /** The monthly price, minor units (same currency). */
  monthlyMinor: number;
};

/** The public pages a receipt links to: the cancel page (no sign-in) and Billing, in the order's language. */
export function billingLinks(locale: string) {
  const origin = env().APP_ORIGIN;
  return { cancel: localeUrl(origin, locale, '/cancel/'), billing: localeUrl(origin, locale, '/dashboard/billing/') };
}

/** The `card` parameter of a receipt: "Visa •••• 4242" (scheme and last four only, PCI DSS 3.3), or none. */
export function paidCard(brand: string | null | undefined, last4: string | null | undefined): { card?: string } {
  if (!last4) return {};
  return { card: `${cardBrandName(brand) ?? ''} •••• ${last4}`.trim() };
}

/**
 * Queues the receipt e-mail of a monthly `charge` inside `tx` (the transaction that records the charge, so a rolled-back
 * charge sends nothing): what was charged and when (UTC), for what, with which card (scheme and last four only) or
 * the wallet, the statement descriptor (BILLING_DESCRIPTOR), the next charge, and how to cancel — the cancel page
 * that needs no sign-in and Billing. Every charge gets one: each renewal, sandbox and Stripe; the trial payment's
 * receipt is the order e-mail (`order-credentials`, ./checkout.ts), which carries the same lines (California Business and Professions Code section 17602, automatic renewal: an acknowledgement that says how to cancel).
 * Texts: messages/*.json `Email.receipt*`. Returns the outbox id.
 */
export async function queueReceipt(tx: Tx, charge: Charge): Promise<string> {
  const { order } = charge;
  const locale = order.locale;
  return queueEmail(tx, {
    to: order.email,
    template: 'payment-receipt',
    locale,
    params: {
      order: order.reference,
      amount: formatMoney(charge.amountMinor, charge.currency, locale),
      monthly: formatMoney(charge.monthlyMinor, charge.currency, locale),
      date: emailDateTime(charge.chargedAt, locale),
      next: emailDateTime(charge.nextChargeAt, locale),
      method: order.paymentMethod,
      ...paidCard(order.cardBrand, order.cardLast4),
      descriptor: env().BILLING_DESCRIPTOR,
      ...billingLinks(locale),
    },
  });
}
