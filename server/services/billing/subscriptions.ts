import 'server-only';
import { and, desc, eq, exists, gte, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { consents, domainEvents, locationRequests, orders, priceSetups, subscriptions, users } from '../../db/schema';
import type { Subscription } from '../../db/schema';
import { env } from '../../env';
import { localeUrl } from '../../../i18n/routing';
import { lockOrders, lockSubscription } from './billing-locks';
import { formatMoney } from '../money';
import { emailDateTime, queueEmail } from '../messaging';
import { withdrawRequests } from '../locate';
import { transition, type SubscriptionEvent, type SubscriptionState } from './subscription-machine';

// A buyer's subscriptions in the database: every change goes through the machine (./subscription-machine.ts,
// docs/rules.md "States") in the caller's transaction; what counts as the service performed (a location shared since
// the payment: terms of use, the refund and withdrawal rules); the buyer's own cancellation. The billing job's renewals
// and reminders are ./renewals.ts.

/**
 * Applies `event` to subscription `id` inside `tx` (row locked), writes the change and a `subscription.<event>`
 * domain event. The write is conditional, as every transition of the billing machines: it names the status it was
 * computed from (./subscription-machine.ts `SUBSCRIPTION_TRANSITIONS`), so a change that did not come through this
 * lock is never overwritten. A subscription that ends (`canceled`: refund, cancellation at period end, failed
 * renewals) withdraws the buyer's open requests unless another subscription still gives access. Returns the new row,
 * or null when the event changes nothing (see `transition`).
 */
export async function applySubscriptionEvent(tx: Tx, id: string, event: SubscriptionEvent) {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  if (!row) return null;
  const next = transition(row, event);
  if (!next) return null;
  const [updated] = await tx
    .update(subscriptions)
    .set(next)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, row.status)))
    .returning();
  if (!updated) return null;
  await tx.insert(domainEvents).values({
    type: `subscription.${event.type}`,
    aggregateId: id,
    payload: { from: row.status, to: next.status, at: event.at.toISOString() },
  });
  if (updated.status === 'canceled' && row.status !== 'canceled') await withdrawRequests(tx, updated.userId);
  return updated;
}

/**
 * Whether a location was shared with buyer `userId` at or after `since` (their order's payment): a request of theirs
 * has `firstSharedAt` then or later, or the owner's consent record (`consents`, append-only) says `shared` or
 * `shared_again` since. This is "the service was performed" (terms of use, refunds): a trial without it is refunded
 * and does not convert (./unconsented-trials.ts).
 */
export async function locationSharedSince(db: Db | Tx, userId: string, since: Date): Promise<boolean> {
  const consentGiven = db
    .select({ one: sql`1` })
    .from(consents)
    .where(
      and(
        eq(consents.requestId, locationRequests.id),
        inArray(consents.decision, ['shared', 'shared_again']),
        gte(consents.createdAt, since),
      ),
    );
  const [hit] = await db
    .select({ id: locationRequests.id })
    .from(locationRequests)
    .where(
      and(eq(locationRequests.userId, userId), or(gte(locationRequests.firstSharedAt, since), exists(consentGiven))),
    )
    .limit(1);
  return !!hit;
}

/** The subscription `id` with its order, price and the account's e-mail, for e-mails and charges; undefined if none. */
export async function withOrder(tx: Tx | Db, id: string) {
  const [row] = await tx
    .select({ sub: subscriptions, order: orders, price: priceSetups, email: users.email })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, id));
  return row;
}

export type Billing = NonNullable<Awaited<ReturnType<typeof withOrder>>>;

export function emailParams(row: Billing, sub: SubscriptionState) {
  const locale = row.order.locale;
  return {
    email: row.email,
    phone: row.order.phoneE164,
    monthly: formatMoney(row.price.monthlyPriceMinor, row.price.currency, locale),
    date: emailDateTime(sub.currentPeriodEnd, locale),
    link: localeUrl(env().APP_ORIGIN, locale, '/dashboard/billing/'),
    descriptor: env().BILLING_DESCRIPTOR,
  };
}

/** The caller's subscriptions that are still live (trialing, active or past_due), newest first. */
export function liveSubscriptions(db: Db | Tx, userId: string): Promise<Subscription[]> {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ['trialing', 'active', 'past_due'])))
    .orderBy(desc(subscriptions.createdAt));
}

/**
 * Cancels every live subscription of `userId` at its next billing date (docs/rules.md#states): the current period stays active,
 * a trial cancelled before it ends is never charged. `cancelAtProvider` is called first for provider-managed
 * (Stripe) subscriptions. Queues a confirmation e-mail (sent when the transaction commits). Returns the cancel dates; no live
 * subscription → `[]` and nothing is sent. Locks every order of those subscriptions, then every subscription, before
 * changing any (./billing-locks.ts), so a refund, withdrawal or renewal of one of them never waits in a cycle.
 */
export async function cancelSubscriptions(
  db: Db,
  userId: string,
  cancelAtProvider: (sub: Subscription) => Promise<void>,
  now: Date = new Date(),
): Promise<{ cancelAt: Date[] }> {
  const live = await liveSubscriptions(db, userId);
  for (const sub of live) if (sub.provider !== 'sandbox' && !sub.cancelAt) await cancelAtProvider(sub);
  return db.transaction(async (tx) => {
    const cancelAt: Date[] = [];
    await lockOrders(tx, [...new Set(live.map((sub) => sub.orderId))]);
    for (const id of live.map((sub) => sub.id).sort()) await lockSubscription(tx, id);
    for (const sub of live) {
      const next = await applySubscriptionEvent(tx, sub.id, { type: 'cancel_requested', at: now });
      if (!next) continue;
      cancelAt.push(next.cancelAt ?? next.canceledAt ?? now);
      const row = (await withOrder(tx, sub.id))!;
      await queueEmail(tx, {
        to: row.email,
        template: 'subscription-canceled',
        locale: row.order.locale,
        params: { ...emailParams(row, next), date: emailDateTime(next.cancelAt ?? now, row.order.locale) },
      });
    }
    return { cancelAt };
  });
}
