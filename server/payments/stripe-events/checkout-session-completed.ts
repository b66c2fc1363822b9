import 'server-only';
import type Stripe from 'stripe';
import { applyPaidCheckout, retrievePaidCheckout, type StripeEventHandler } from '../stripe-sync';

/**
 * `checkout.session.completed` (and `…async_payment_succeeded`): the first payment. Stripe is asked for the session
 * first; the order is then completed in the event's transaction (a no-op when the return page completed it).
 */
export const onCheckoutSessionCompleted: StripeEventHandler = async (event) => {
  const paid = await retrievePaidCheckout((event.data.object as Stripe.Checkout.Session).id);
  return async (tx) => {
    if (paid) await applyPaidCheckout(tx, paid, { ip: null, userAgent: 'stripe-webhook' });
  };
};
