import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { invoiceSubscriptionId, syncStripeSubscription, type HandlerResult } from '../stripe-sync';

/** `invoice.paid`: a renewal (or the trial conversion) succeeded; the subscription becomes active for the new period. */
export async function onInvoicePaid(tx: Tx, event: Stripe.Event): Promise<HandlerResult> {
  const id = invoiceSubscriptionId(event.data.object as Stripe.Invoice);
  return id ? syncStripeSubscription(tx, id) : { outboxIds: [] };
}
