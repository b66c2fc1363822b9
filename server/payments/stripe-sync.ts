import 'server-only';
import type Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { orders, priceSetups, subscriptions } from '../db/schema';
import { cancelAtOf, periodEndOf, statusFromStripe, stripeClient } from '../providers/stripe';
import { fulfilOrder, type ClientMeta } from '../services/checkout';
import { queueReceipt } from '../services/receipts';
import { applySubscriptionEvent } from '../services/subscriptions';

/** What a Stripe event handler did: outbox rows to enqueue after the commit. */
export type HandlerResult = { outboxIds: string[] };

/**
 * Completes the order of Checkout Session `sessionId` if Stripe says it is paid. The session is re-fetched, never
 * trusted from the event (Stripe webhooks docs, "Handle events"). The subscription's default payment method is expanded for
 * the card's scheme and last four digits (none for a wallet). Used by the `checkout.session.completed` webhook and
 * by the return page; the order row lock makes whichever comes second a no-op (one account, one e-mail).
 * Runs in `tx`. Returns the fulfilment or null when nothing was done (not paid yet, or already completed).
 */
export async function completeCheckoutSession(tx: Tx, sessionId: string, meta: ClientMeta) {
  const session = await stripeClient().checkout.sessions.retrieve(sessionId, {
    expand: ['subscription.default_payment_method', 'invoice.payments'],
  });
  if (session.status !== 'complete' || session.payment_status === 'unpaid' || !session.client_reference_id) return null;
  const sub = typeof session.subscription === 'object' ? session.subscription : null;
  const invoice = typeof session.invoice === 'object' ? session.invoice : null;
  const intent = invoice?.payments?.data[0]?.payment.payment_intent;
  // The card that paid, for the receipt: its scheme and last four digits only (Stripe's PaymentMethod `card`).
  const method = typeof sub?.default_payment_method === 'object' ? sub.default_payment_method : null;
  {
    const [order] = await tx.select().from(orders).where(eq(orders.code, session.client_reference_id!)).for('update');
    if (!order || (order.status !== 'pending' && order.status !== 'failed')) return null;
    const status = sub ? statusFromStripe(sub.status) : 'trialing';
    return fulfilOrder(tx, order, meta, {
      providerSubscription: sub
        ? { id: sub.id, status: status === 'active' ? 'active' : 'trialing', currentPeriodEnd: periodEndOf(sub) }
        : undefined,
      providerPaymentId: typeof intent === 'string' ? intent : intent?.id,
      cardLast4: method?.card?.last4,
      cardBrand: method?.card?.brand ?? null,
    });
  }
}

/**
 * Brings our row of Stripe subscription `stripeId` to Stripe's current state (re-fetched), through the state machine
 * (`provider_sync`). Events arriving out of order therefore still end in Stripe's final state. A subscription we do not
 * know yet (its checkout not completed) is left for the checkout completion, which reads the same state.
 */
export async function syncStripeSubscription(tx: Tx, stripeId: string): Promise<HandlerResult> {
  const remote: Stripe.Subscription = await stripeClient().subscriptions.retrieve(stripeId);
  const [local] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, stripeId));
  if (!local) return { outboxIds: [] };
  await applySubscriptionEvent(tx, local.id, {
    type: 'provider_sync',
    at: new Date(),
    status: statusFromStripe(remote.status),
    currentPeriodEnd: periodEndOf(remote),
    cancelAt: cancelAtOf(remote),
  });
  return { outboxIds: [] };
}

/** The subscription id an invoice belongs to (API 2025+: `parent.subscription_details.subscription`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === 'string' ? sub : (sub?.id ?? null);
}

/**
 * The receipt of a paid Stripe invoice `invoiceId` (re-fetched): a monthly charge — the trial's conversion or a renewal
 * (`billing_reason` other than `subscription_create`, whose receipt is the order e-mail) with an amount above zero —
 * e-mails what was charged (Stripe's `amount_paid`, minor units), when (`status_transitions.paid_at`), the next charge
 * (our subscription's period end, already synced) and how to cancel (services/receipts.ts). Runs in the webhook's
 * transaction, whose event-id record makes one receipt per `invoice.paid` event. Returns the outbox ids.
 */
export async function receiptForInvoice(tx: Tx, invoiceId: string): Promise<string[]> {
  const invoice = await stripeClient().invoices.retrieve(invoiceId);
  if (invoice.status !== 'paid' || invoice.billing_reason === 'subscription_create' || invoice.amount_paid <= 0) {
    return [];
  }
  const subId = invoiceSubscriptionId(invoice);
  if (!subId) return [];
  const [row] = await tx
    .select({ sub: subscriptions, order: orders, price: priceSetups })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .where(eq(subscriptions.providerSubscriptionId, subId));
  if (!row) return [];
  const paidAt = invoice.status_transitions?.paid_at;
  return [
    await queueReceipt(tx, {
      order: row.order,
      amountMinor: invoice.amount_paid,
      currency: invoice.currency.toUpperCase(),
      chargedAt: paidAt ? new Date(paidAt * 1000) : new Date(),
      nextChargeAt: row.sub.currentPeriodEnd,
      monthlyMinor: row.price.monthlyPriceMinor,
    }),
  ];
}
