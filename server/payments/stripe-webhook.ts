import 'server-only';
import type Stripe from 'stripe';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { webhookEvents } from '../db/schema';
import { onCheckoutSessionCompleted } from './stripe-events/checkout-session-completed';
import { onInvoicePaid } from './stripe-events/invoice-paid';
import { onInvoicePaymentFailed } from './stripe-events/invoice-payment-failed';
import { onSubscriptionChanged } from './stripe-events/customer-subscription-updated';
import type { StripeEventHandler } from './stripe-sync';

/** The Stripe events we act on, one handler file each (server/payments/stripe-events/). */
const HANDLERS: Record<string, StripeEventHandler> = {
  'checkout.session.completed': onCheckoutSessionCompleted,
  'checkout.session.async_payment_succeeded': onCheckoutSessionCompleted,
  'invoice.paid': onInvoicePaid,
  'invoice.payment_failed': onInvoicePaymentFailed,
  'customer.subscription.updated': onSubscriptionChanged,
  'customer.subscription.deleted': onSubscriptionChanged,
};

/**
 * Handles a verified Stripe event once (Stripe webhooks docs, "Handle duplicate events"): the event id is recorded
 * with a unique key in the same transaction as the handler's changes. Concurrent deliveries of one event wait on that
 * key; only the first acts. If the handler throws, nothing is recorded, the route answers 5xx, and Stripe retries.
 * Stripe is asked for the current state (the handler's first step) before the transaction opens, so no pooled
 * connection or lock is held during the call; an event already recorded answers `duplicate` without asking.
 */
export async function handleStripeEvent(
  db: Db,
  event: Stripe.Event,
): Promise<{ result: 'handled' | 'duplicate' | 'ignored' }> {
  const [seen] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.provider, 'stripe'), eq(webhookEvents.eventId, event.id)));
  if (seen) return { result: 'duplicate' };
  const handler = HANDLERS[event.type];
  const write = handler ? await handler(event) : null;
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(webhookEvents)
      .values({ provider: 'stripe', eventId: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (!recorded.length) return { result: 'duplicate' as const };
    if (!write) return { result: 'ignored' as const };
    await write(tx);
    return { result: 'handled' as const };
  });
}
