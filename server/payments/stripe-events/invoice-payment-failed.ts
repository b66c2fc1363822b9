import 'server-only';
import type Stripe from 'stripe';
import {
  applyStripeSubscription,
  invoiceSubscriptionId,
  retrieveStripeSubscription,
  type StripeEventHandler,
} from '../stripe-sync';

/** `invoice.payment_failed`: a renewal failed; Stripe marks the subscription past_due and access is suspended. */
export const onInvoicePaymentFailed: StripeEventHandler = async (event) => {
  const id = invoiceSubscriptionId(event.data.object as Stripe.Invoice);
  if (!id) return async () => {};
  const remote = await retrieveStripeSubscription(id);
  return (tx) => applyStripeSubscription(tx, remote);
};
