import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { invoiceSubscriptionId, syncStripeSubscription, type HandlerResult } from '../stripe-sync';

/** `invoice.payment_failed`: a renewal failed; Stripe marks the subscription past_due and access is suspended. */
export async function onInvoicePaymentFailed(tx: Tx, event: Stripe.Event): Promise<HandlerResult> {
  const id = invoiceSubscriptionId(event.data.object as Stripe.Invoice);
  return id ? syncStripeSubscription(tx, id) : { outboxIds: [] };
}
