import 'server-only';
import { randomBytes } from 'node:crypto';
import { env } from '../env';
import type { Order, PriceSetup, Subscription } from '../db/schema';
import { languageOf, localePath, localeUrl } from '../../i18n/routing';
import { stripeClient } from './stripe';

/**
 * One interface over the payment providers (docs/rules.md#runtime), chosen by PAYMENT_PROVIDER:
 * - `sandbox`: our own hosted test checkout (card form with Stripe's test cards, or the sandbox wallet page); the
 *   charge happens on our pay endpoints, renewals are our pg-boss job.
 * - `stripe`: Stripe Checkout in subscription mode (trial_period_days 1, the trial fee as a one-time line item on the
 *   first invoice), embedded in our own `/checkout/` page (Stripe's Embedded Checkout, `ui_mode: embedded_page`), so
 *   the buyer never leaves the site (an in-app browser loses many buyers on a redirect to another site); webhooks
 *   confirm payment and drive renewals.
 */
export type PaymentProvider = {
  name: 'sandbox' | 'stripe';
  /**
   * Opens the provider's checkout of `order`. `url` is where the payer goes: our `/checkout/` page in the order's
   * locale (`/checkout/wallet/` for the sandbox wallet); `sessionId` is the provider's checkout session, if any.
   */
  startCheckout(order: Order, price: PriceSetup): Promise<{ url: string; sessionId?: string }>;
  /** Where the payer goes to pay `order` whose checkout was started: the same page `startCheckout` named. */
  checkoutUrl(order: Order): string;
  /**
   * The client secret the browser mounts the provider's embedded checkout with (Stripe: the Checkout Session's
   * `client_secret`, https://docs.stripe.com/payments/accept-a-payment?ui=embedded-form); null when the provider has
   * none (sandbox) or the session is no longer open.
   */
  checkoutSecret(order: Order): Promise<string | null>;
  /** Asks the provider to end `sub` at its period end (Stripe: `cancel_at_period_end`). */
  cancelAtPeriodEnd(sub: Subscription): Promise<void>;
  /** Ends `sub` at once at the provider (after a refund). */
  cancelNow(sub: Subscription): Promise<void>;
  /** Refunds `amountMinor` of `order`, once: the same key never refunds twice. Returns the provider's refund id. */
  refund(order: Order, amountMinor: number, idempotencyKey: string): Promise<string>;
};

function returnUrl(order: Order, path: string) {
  return localeUrl(env().APP_ORIGIN, order.locale, `${path}?order=${encodeURIComponent(order.code)}`);
}

/** Our checkout page of `order` in its locale: the card page, or the sandbox wallet's for a wallet order. */
function checkoutPath(order: Order, page = '/checkout/') {
  return localePath(order.locale, `${page}?order=${encodeURIComponent(order.code)}`);
}

const sandbox: PaymentProvider = {
  name: 'sandbox',
  async startCheckout(order) {
    return { url: this.checkoutUrl(order) };
  },
  checkoutUrl(order) {
    return checkoutPath(order, order.paymentMethod === 'wallet' ? '/checkout/wallet/' : '/checkout/');
  },
  async checkoutSecret() {
    return null;
  },
  async cancelAtPeriodEnd() {},
  async cancelNow() {},
  async refund() {
    // 12 random bytes in base64url, as the services' randomToken (a provider takes no service).
    return `sbx_re_${randomBytes(12).toString('base64url')}`;
  },
};

const stripe: PaymentProvider = {
  name: 'stripe',
  async startCheckout(order, price) {
    const name = env().NEXT_PUBLIC_PRODUCT_NAME;
    const session = await stripeClient().checkout.sessions.create(
      {
        mode: 'subscription',
        ui_mode: 'embedded_page',
        client_reference_id: order.code,
        customer_email: order.email,
        locale: languageOf(order.locale),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: price.currency.toLowerCase(),
              unit_amount: price.monthlyPriceMinor,
              recurring: { interval: 'month' },
              product_data: { name: `${name} monthly` },
            },
          },
          {
            quantity: 1,
            price_data: {
              currency: price.currency.toLowerCase(),
              unit_amount: order.amountMinor,
              product_data: { name: `${name} ${price.trialHours}-hour trial` },
            },
          },
        ],
        subscription_data: { trial_period_days: 1, metadata: { order: order.code } },
        payment_method_collection: 'always',
        // Where Stripe sends the browser once the embedded form is paid (an embedded session has no cancel page: the
        // buyer leaves our page as any other).
        return_url: `${returnUrl(order, '/paystatus/')}&session_id={CHECKOUT_SESSION_ID}`,
      },
      { idempotencyKey: `checkout-${order.code}` },
    );
    return { url: this.checkoutUrl(order), sessionId: session.id };
  },
  checkoutUrl(order) {
    return checkoutPath(order);
  },
  async checkoutSecret(order) {
    if (!order.providerSessionId) return null;
    const session = await stripeClient().checkout.sessions.retrieve(order.providerSessionId);
    return session.status === 'open' ? session.client_secret : null;
  },
  async cancelAtPeriodEnd(sub) {
    if (!sub.providerSubscriptionId) return;
    await stripeClient().subscriptions.update(sub.providerSubscriptionId, { cancel_at_period_end: true });
  },
  async cancelNow(sub) {
    if (sub.providerSubscriptionId) await stripeClient().subscriptions.cancel(sub.providerSubscriptionId);
  },
  async refund(order, amountMinor, idempotencyKey) {
    if (!order.providerPaymentId) throw new Error(`order ${order.code} has no Stripe payment intent`);
    const refund = await stripeClient().refunds.create(
      { payment_intent: order.providerPaymentId, amount: amountMinor },
      { idempotencyKey },
    );
    return refund.id;
  },
};

/** The provider an order or subscription uses (`name`), or the configured one. */
export function paymentProvider(name: string = env().PAYMENT_PROVIDER): PaymentProvider {
  return name === 'stripe' ? stripe : sandbox;
}
