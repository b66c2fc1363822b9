import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { syncStripeSubscription, type HandlerResult } from '../stripe-sync';

/** `customer.subscription.updated` and `…deleted`: status, period end or cancel date changed at Stripe. */
export async function onSubscriptionChanged(tx: Tx, event: Stripe.Event): Promise<HandlerResult> {
  return syncStripeSubscription(tx, (event.data.object as Stripe.Subscription).id);
}
