import 'server-only';
import type Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { payerKeyOfCard } from '../services/locate';
import { orders, priceSetups, subscriptions } from '../db/schema';
import { cancelAtOf, periodEndOf, statusFromStripe, stripeClient } from '../providers/stripe';
import { applySubscriptionEvent, type ClientMeta, fulfilOrder, lockOrder, queueReceipt } from '../services/billing';
import { isPayable } from '../../lib/order-machine';

/**
 * A Stripe event's handling in two steps (server/payments/stripe-events/): the handler asks Stripe for the current
 * state of what the event names — a network call, made outside any database transaction — and returns the step
 * that writes it, which runs in the transaction that records the event id.
 */
export type StripeEventHandler = (event: Stripe.Event) => Promise<(tx: Tx) => Promise<void>>;

/** A paid Checkout Session as Stripe reports it, with what completing its order needs. */
export type PaidCheckout = {
  /** Our order's public code (the session's `client_reference_id`). */
  orderCode: string;
  /** The subscription Stripe made for it, expanded with its default payment method, or null. */
  subscription: Stripe.Subscription | null;
  /** The first invoice's PaymentIntent id, when Stripe gave one. */
  paymentIntentId: string | undefined;
};

/**
 * Asks Stripe for Checkout Session `sessionId` (re-fetched, never trusted from an event: Stripe webhooks docs, "Handle
 * events"), with the subscription's default payment method and the invoice's payments expanded. Returns null when
 * the session is not complete and paid (or names no order). A network call: run it outside any database
 * transaction, then complete the order with applyPaidCheckout in a short one. Throws on Stripe errors.
 */
export async function retrievePaidCheckout(sessionId: string): Promise<PaidCheckout | null> {
  const session = await stripeClient().checkout.sessions.retrieve(sessionId, {
    expand: ['subscription.default_payment_method', 'invoice.payments'],
  });
  if (session.status !== 'complete' || session.payment_status === 'unpaid' || !session.client_reference_id) return null;
  const invoice = typeof session.invoice === 'object' ? session.invoice : null;
  const intent = invoice?.payments?.data[0]?.payment.payment_intent;
  return {
    orderCode: session.client_reference_id,
    subscription: typeof session.subscription === 'object' ? session.subscription : null,
    paymentIntentId: typeof intent === 'string' ? intent : intent?.id,
  };
}

/**
 * Completes the order of a paid Checkout Session in `tx`: locks the order row and re-checks it is still payable
 * (`pending` or `failed`), so the webhook and the return page completing it at once make one account and one e-mail
 * (whichever comes second is a no-op). The card that paid is kept for the receipt: its scheme and last four digits
 * only (Stripe's PaymentMethod `card`; none for a wallet). Returns the fulfilment, or null when nothing was done.
 */
export async function applyPaidCheckout(tx: Tx, paid: PaidCheckout, meta: ClientMeta) {
  const sub = paid.subscription;
  const method = typeof sub?.default_payment_method === 'object' ? sub.default_payment_method : null;
  const [order] = await tx.select().from(orders).where(eq(orders.code, paid.orderCode)).for('update');
  if (!order || !isPayable(order.status)) return null;
  const status = sub ? statusFromStripe(sub.status) : 'trialing';
  return fulfilOrder(tx, order, meta, {
    providerSubscription: sub
      ? { id: sub.id, status: status === 'active' ? 'active' : 'trialing', currentPeriodEnd: periodEndOf(sub) }
      : undefined,
    providerPaymentId: paid.paymentIntentId,
    cardLast4: method?.card?.last4,
    cardBrand: method?.card?.brand ?? null,
    // Stripe's card fingerprint is the same for the same card number on any customer (Stripe API, PaymentMethod
    // `card.fingerprint`), wallets included: the owner's protections follow the card
    // (services/locate/requester-marks.ts).
    payerKey: method?.card?.fingerprint ? payerKeyOfCard(method.card.fingerprint) : null,
  });
}

/**
 * The return page's check of a pending Stripe order (`GET /portal/user/checkRegister/{code}`), which may arrive
 * before the webhook: asks Stripe first, outside any transaction (no pooled connection or row lock is held during
 * the call), then completes the order in a short transaction that re-checks it under its row lock. The messages it
 * writes are announced by the outbox when it commits.
 */
export async function completeCheckoutOnReturn(db: Db, sessionId: string, meta: ClientMeta): Promise<void> {
  const paid = await retrievePaidCheckout(sessionId);
  if (!paid) return;
  await db.transaction((tx) => applyPaidCheckout(tx, paid, meta));
}

/** Asks Stripe for subscription `stripeId` as it is now (never trusted from an event). Throws on Stripe errors. */
export function retrieveStripeSubscription(stripeId: string): Promise<Stripe.Subscription> {
  return stripeClient().subscriptions.retrieve(stripeId);
}

/**
 * Brings our row of Stripe subscription `remote` (as retrieveStripeSubscription fetched it, before the transaction)
 * to that state, through the state machine (`provider_sync`). Events arriving out of order therefore still end in
 * Stripe's final state. A subscription we do not know yet (its checkout not completed) is left for the checkout
 * completion, which reads the same state. Its order is locked before the subscription (services/billing/billing-locks.ts), as
 * a refund or withdrawal running at the same time does.
 */
export async function applyStripeSubscription(tx: Tx, remote: Stripe.Subscription): Promise<void> {
  const [local] = await tx
    .select({ id: subscriptions.id, orderId: subscriptions.orderId })
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, remote.id));
  if (!local) return;
  await lockOrder(tx, eq(orders.id, local.orderId));
  await applySubscriptionEvent(tx, local.id, {
    type: 'provider_sync',
    at: new Date(),
    status: statusFromStripe(remote.status),
    currentPeriodEnd: periodEndOf(remote),
    cancelAt: cancelAtOf(remote),
  });
}

/** The subscription id an invoice belongs to (API 2025+: `parent.subscription_details.subscription`). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const sub = invoice.parent?.subscription_details?.subscription;
  return typeof sub === 'string' ? sub : (sub?.id ?? null);
}

/** Asks Stripe for invoice `invoiceId` as it is now (never trusted from an event). Throws on Stripe errors. */
export function retrieveInvoice(invoiceId: string): Promise<Stripe.Invoice> {
  return stripeClient().invoices.retrieve(invoiceId);
}

/**
 * The receipt of a paid Stripe invoice (as retrieveInvoice fetched it, before the transaction): a monthly charge — the trial's conversion or a renewal
 * (`billing_reason` other than `subscription_create`, whose receipt is the order e-mail) with an amount above zero —
 * e-mails what was charged (Stripe's `amount_paid`, minor units), when (`status_transitions.paid_at`), the next charge
 * (our subscription's period end, already synced) and how to cancel (services/billing/receipts.ts). Runs in the webhook's
 * transaction, whose event-id record makes one receipt per `invoice.paid` event. Returns the ids of what it wrote (tests read them).
 */
export async function receiptForInvoice(tx: Tx, invoice: Stripe.Invoice): Promise<string[]> {
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
