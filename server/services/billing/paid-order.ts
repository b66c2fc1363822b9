import 'server-only';
import type { Tx } from '../../db/client';
import { domainEvents, payments, subscriptions, type Order, type PriceSetup } from '../../db/schema';
import { env } from '../../env';
import { localeUrl } from '../../../i18n/routing';
import { formatMoney } from '../money';
import { emailDateTime, queueEmail } from '../messaging';
import { billingLinks, paidCard } from './receipts';

// What a paid order writes besides its own row and the account (docs/rules.md "Payments", docs/order-states.md): the
// trial's subscription with its payment and event, and the order e-mail. Both run inside ./checkout.ts `fulfilOrder`.

/** How the first payment was made, for the subscription's later renewals. */
export type Fulfilment = {
  sandboxRenewal?: 'succeeds' | 'fails';
  cardLast4?: string;
  /** The card's scheme, Stripe's `card.brand` code (`visa`, …); never more of the number than the last four. */
  cardBrand?: string | null;
  /**
   * The paying card's key (services/locate/requester-marks.ts `payerKeyOfCard`, from Stripe's card fingerprint). None
   * in the sandbox: its cards are Stripe's published test cards, the same for every visitor, so they tell no one apart.
   */
  payerKey?: string | null;
  providerSubscription?: { id: string; status: 'trialing' | 'active'; currentPeriodEnd: Date };
  providerPaymentId?: string;
  /** The payer is on our own page and can receive the new account's session cookie (the sandbox routes). */
  signIn?: boolean;
};

/**
 * Starts the trial of `order`, paid at `now` by account `userId`, in `tx`: a subscription (the provider's own when
 * `how.providerSubscription` names one, else `trialing` until `price.trialHours` from now), the `initial` payment of
 * the order's amount, and the `order.paid` domain event. Returns the subscription's id.
 */
export async function startTrial(
  tx: Tx,
  order: Order,
  userId: string,
  price: PriceSetup,
  how: Fulfilment,
  now: Date,
): Promise<string> {
  const trialEnd = how.providerSubscription?.currentPeriodEnd ?? new Date(now.getTime() + price.trialHours * 3600_000);
  const [sub] = await tx
    .insert(subscriptions)
    .values({
      userId,
      orderId: order.id,
      status: how.providerSubscription?.status ?? 'trialing',
      currentPeriodEnd: trialEnd,
      provider: order.provider,
      providerSubscriptionId: how.providerSubscription?.id ?? null,
    })
    .returning({ id: subscriptions.id });
  await tx.insert(payments).values({
    orderId: order.id,
    subscriptionId: sub.id,
    kind: 'initial',
    amountMinor: order.amountMinor,
    currency: order.currency,
    status: 'succeeded',
  });
  await tx.insert(domainEvents).values({
    type: 'order.paid',
    aggregateId: order.id,
    payload: { userId, phone: order.phoneE164, subscriptionId: sub.id },
  });
  return sub.id;
}

/**
 * Writes the order e-mail of `order`, paid at `now`, to the outbox (template `order-credentials`, in the order's
 * locale): the new account's temporary `password` when one was made, whether the consent SMS was refused
 * (`smsRefused`), the amounts (the trial's and the monthly price of `price`), the card descriptor, the link to the
 * dashboard, and the trial payment's receipt (when, paid with what, how to cancel; ./receipts.ts has the renewals').
 */
export async function queueOrderEmail(
  tx: Tx,
  order: Order,
  paid: { password: string | null; smsRefused: boolean; price: PriceSetup; how: Fulfilment; now: Date },
): Promise<void> {
  const e = env();
  const { password, smsRefused, price, how, now } = paid;
  await queueEmail(tx, {
    to: order.email,
    template: 'order-credentials',
    locale: order.locale,
    params: {
      email: order.email,
      ...(password ? { password } : {}),
      ...(smsRefused ? { smsRefused: 1 } : {}),
      order: order.reference,
      phone: order.phoneE164,
      amount: formatMoney(order.amountMinor, order.currency, order.locale),
      monthly: formatMoney(price.monthlyPriceMinor, price.currency, order.locale),
      descriptor: e.BILLING_DESCRIPTOR,
      link: localeUrl(e.APP_ORIGIN, order.locale, '/dashboard/locations/'),
      // The receipt of the trial payment (./receipts.ts has the renewals'): when, paid with what, how to cancel.
      date: emailDateTime(now, order.locale),
      method: order.paymentMethod,
      ...paidCard(how.cardBrand ?? order.cardBrand, how.cardLast4 ?? order.cardLast4),
      ...(e.REFUND_UNCONSENTED_TRIALS ? { refundUnconsented: 1 } : {}),
      ...billingLinks(order.locale),
    },
  });
}
