import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { completeCheckoutSession, type HandlerResult } from '../stripe-sync';

/** `checkout.session.completed` (and `…async_payment_succeeded`): the first payment; completes the order. */
export async function onCheckoutSessionCompleted(tx: Tx, event: Stripe.Event): Promise<HandlerResult> {
  const session = event.data.object as Stripe.Checkout.Session;
  const result = await completeCheckoutSession(tx, session.id, { ip: null, userAgent: 'stripe-webhook' });
  return { outboxIds: result?.kind === 'paid' ? result.outboxIds : [] };
}
