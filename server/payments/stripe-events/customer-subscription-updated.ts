import 'server-only';
import type Stripe from 'stripe';
import { applyStripeSubscription, retrieveStripeSubscription, type StripeEventHandler } from '../stripe-sync';

/** `customer.subscription.updated` and `…deleted`: status, period end or cancel date changed at Stripe. */
export const onSubscriptionChanged: StripeEventHandler = async (event) => {
  const remote = await retrieveStripeSubscription((event.data.object as Stripe.Subscription).id);
  return (tx) => applyStripeSubscription(tx, remote);
};
