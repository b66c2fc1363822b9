import 'server-only';
import type Stripe from 'stripe';
import {
  applyStripeSubscription,
  invoiceSubscriptionId,
  receiptForInvoice,
  retrieveInvoice,
  retrieveStripeSubscription,
  type StripeEventHandler,
} from '../stripe-sync';

/**
 * `invoice.paid`: a renewal (or the trial conversion) succeeded; the subscription becomes active for the new period,
 * then the buyer gets the charge's receipt (`receiptForInvoice`). The subscription and the invoice are fetched from
 * Stripe before the event's transaction.
 */
export const onInvoicePaid: StripeEventHandler = async (event) => {
  const invoice = event.data.object as Stripe.Invoice;
  const id = invoiceSubscriptionId(invoice);
  if (!id) return async () => {};
  const [remote, current] = await Promise.all([
    retrieveStripeSubscription(id),
    invoice.id ? retrieveInvoice(invoice.id) : null,
  ]);
  return async (tx) => {
    await applyStripeSubscription(tx, remote);
    if (current) await receiptForInvoice(tx, current);
  };
};
