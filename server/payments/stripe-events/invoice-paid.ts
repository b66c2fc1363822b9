import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { invoiceSubscriptionId, receiptForInvoice, syncStripeSubscription, type HandlerResult } from '../stripe-sync';

/**
 * `invoice.paid`: a renewal (or the trial conversion) succeeded; the subscription becomes active for the new period,
 * then the buyer gets the charge's receipt (`receiptForInvoice`).
 */
export async function onInvoicePaid(tx: Tx, event: Stripe.Event): Promise<HandlerResult> {
  const invoice = event.data.object as Stripe.Invoice;
  const id = invoiceSubscriptionId(invoice);
  if (!id) return { outboxIds: [] };
  const synced = await syncStripeSubscription(tx, id);
  const receipts = invoice.id ? await receiptForInvoice(tx, invoice.id) : [];
  return { outboxIds: [...synced.outboxIds, ...receipts] };
}
