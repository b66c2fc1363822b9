import 'server-only';
import { emailDateTime } from '../templates';
import { and, asc, desc, eq, exists, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  consents,
  domainEvents,
  locationRequests,
  orders,
  payments,
  priceSetups,
  subscriptions,
  users,
} from '../../db/schema';
import type { Subscription } from '../../db/schema';
import { env } from '../../env';
import { localeUrl } from '../../../i18n/routing';
import { lockOrder, lockOrders, lockSubscription } from './billing-locks';
import { formatMoney } from '../money';
import { queueEmail } from '../outbox-queue';
import { queueReceipt } from './receipts';
import { withdrawRequests } from '../requests';
import { isDue, transition, type SubscriptionEvent, type SubscriptionState } from './subscription-machine';

/**
 * Applies `event` to subscription `id` inside `tx` (row locked), writes the change and a `subscription.<event>`
 * domain event. A subscription that ends (`canceled`: refund, cancellation at period end, failed renewals) withdraws
 * the buyer's open requests unless another subscription still gives access. Returns the new row, or
 * null when the event changes nothing (see `transition`).
 */
export async function applySubscriptionEvent(tx: Tx, id: string, event: SubscriptionEvent) {
  const [row] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update');
  if (!row) return null;
  const next = transition(row, event);
  if (!next) return null;
  const [updated] = await tx.update(subscriptions).set(next).where(eq(subscriptions.id, id)).returning();
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

/**
 * Whether the trial of `row` waits for the unconsented-trial decision instead of converting: the setting
 * REFUND_UNCONSENTED_TRIALS is on, it is a trial, and no location was shared since its order was paid.
 */
async function awaitsTrialRefund(tx: Tx, row: Billing): Promise<boolean> {
  if (!env().REFUND_UNCONSENTED_TRIALS || row.sub.status !== 'trialing' || !row.order.paidAt) return false;
  return !(await locationSharedSince(tx, row.sub.userId, row.order.paidAt));
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

type Billing = NonNullable<Awaited<ReturnType<typeof withOrder>>>;

function emailParams(row: Billing, sub: SubscriptionState) {
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

/**
 * Charges one due sandbox renewal at `now` (docs/rules.md#states): a trial in which nothing was shared is left to the
 * unconsented-trial refund (never converted, whatever happens to that refund); a subscription whose cancel date has
 * come is canceled without a charge; otherwise the monthly price is charged (the sandbox card's renewal behaviour
 * decides the outcome), a `payments` row is written and the machine moves to `active` or `past_due`. A success
 * queues the receipt (./receipts.ts), a failure e-mails the subscriber.
 * Locks the order, then the subscription (./billing-locks.ts), skipping either when another transaction holds
 * it (`skip locked`: a refund, withdrawal or cancellation in progress, or another worker); the next run finds it again.
 * An order whose refund is claimed (`refunding`, ./refund-claims.ts) is not charged either.
 */
async function renewOne(db: Db, id: string, now: Date): Promise<void> {
  return db.transaction(async (tx) => {
    const [ref] = await tx
      .select({ orderId: subscriptions.orderId })
      .from(subscriptions)
      .where(eq(subscriptions.id, id));
    const order = ref && (await lockOrder(tx, eq(orders.id, ref.orderId), { skipLocked: true }));
    // A refund in progress (./refund-claims.ts) ends this subscription in a moment: nothing is charged.
    if (!order || order.status === 'refunding') return;
    if (!(await lockSubscription(tx, id, { skipLocked: true }))) return;
    const row = await withOrder(tx, id);
    if (!row || !isDue(row.sub, now)) return;
    if (await awaitsTrialRefund(tx, row)) return;
    if (row.sub.cancelAt && row.sub.cancelAt <= now) {
      await applySubscriptionEvent(tx, id, { type: 'period_ended', at: now });
      return;
    }
    const ok = row.order.sandboxRenewal !== 'fails';
    await tx.insert(payments).values({
      orderId: row.order.id,
      subscriptionId: id,
      kind: 'renewal',
      amountMinor: row.price.monthlyPriceMinor,
      currency: row.price.currency,
      status: ok ? 'succeeded' : 'failed',
      failureCode: ok ? null : 'card_declined',
    });
    if (ok) {
      const next = await applySubscriptionEvent(tx, id, { type: 'renewal_paid', at: now });
      if (!next) return;
      await tx
        .update(users)
        .set({ paymentCount: sql`${users.paymentCount} + 1` })
        .where(eq(users.id, row.sub.userId));
      await queueReceipt(tx, {
        order: row.order,
        amountMinor: row.price.monthlyPriceMinor,
        currency: row.price.currency,
        chargedAt: now,
        nextChargeAt: next.currentPeriodEnd,
        monthlyMinor: row.price.monthlyPriceMinor,
      });
      return;
    }
    const failuresInARow = await failedInARow(tx, id);
    const next = await applySubscriptionEvent(tx, id, { type: 'renewal_failed', at: now, failuresInARow });
    if (!next) return;
    const template = next.status === 'canceled' ? 'subscription-ended' : 'renewal-failed';
    await queueEmail(tx, { to: row.email, template, locale: row.order.locale, params: emailParams(row, next) });
  });
}

/** Failed renewal payments since the last successful payment of subscription `id`. */
async function failedInARow(tx: Tx, id: string): Promise<number> {
  const rows = await tx
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.subscriptionId, id))
    .orderBy(desc(payments.createdAt))
    .limit(20);
  const streak = rows.findIndex((r) => r.status === 'succeeded');
  return streak === -1 ? rows.length : streak;
}

/**
 * Renews every due sandbox subscription at `now` (`renewOne`, at most 200 a run, oldest first). Stripe subscriptions
 * are renewed by Stripe and arrive as webhooks. Part of the billing job (./billing-cycle.ts).
 */
export async function renewDueSubscriptions(db: Db, now: Date = new Date()): Promise<void> {
  const due = await dueSubscriptionIds(
    db,
    and(
      eq(subscriptions.provider, 'sandbox'),
      or(
        and(inArray(subscriptions.status, ['trialing', 'active']), lte(subscriptions.currentPeriodEnd, now)),
        and(eq(subscriptions.status, 'past_due'), lte(subscriptions.nextRetryAt, now)),
      ),
    ),
    asc(subscriptions.currentPeriodEnd),
  );
  for (const id of due) await renewOne(db, id, now);
}

/** How many subscriptions one run of a billing job handles at most; the rest wait for the next run. */
export const DUE_PER_RUN = 200;

/**
 * The ids of the subscriptions matching `where` that one run of a billing job handles (renewals, trial reminders,
 * annual notices): DUE_PER_RUN at most, in `order` when given. A candidate only: each job checks it again where it
 * acts (a row lock and the due check for a renewal, a conditional update for a reminder), so concurrent runs never
 * act twice on one. `where` is required (drizzle's `and()` is typed as possibly undefined); without it this throws
 * rather than pick any 200 subscriptions.
 */
export async function dueSubscriptionIds(db: Db, where: SQL | undefined, order?: SQL): Promise<string[]> {
  if (!where) throw new Error('dueSubscriptionIds needs a condition');
  const query = db.select({ id: subscriptions.id }).from(subscriptions).where(where).$dynamic();
  const rows = await (order ? query.orderBy(order) : query).limit(DUE_PER_RUN);
  return rows.map((row) => row.id);
}

/**
 * Queues the e-mail that tells a trial subscriber when the trial converts and for how much, TRIAL_REMINDER_HOURS
 * before it does (once per subscription; not for cancelled trials). Returns how many were queued.
 */
export async function sendTrialReminders(db: Db, now: Date = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + env().TRIAL_REMINDER_HOURS * 3600_000);
  const due = await dueSubscriptionIds(
    db,
    and(
      eq(subscriptions.status, 'trialing'),
      isNull(subscriptions.cancelAt),
      isNull(subscriptions.reminderSentAt),
      lte(subscriptions.currentPeriodEnd, horizon),
      sql`${subscriptions.currentPeriodEnd} > ${now}`,
    ),
  );
  let sent = 0;
  for (const id of due) {
    const queued = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(subscriptions)
        .set({ reminderSentAt: now })
        .where(and(eq(subscriptions.id, id), isNull(subscriptions.reminderSentAt)))
        .returning({ id: subscriptions.id });
      if (!claimed) return null;
      const row = (await withOrder(tx, id))!;
      return queueEmail(tx, {
        to: row.email,
        template: 'trial-reminder',
        locale: row.order.locale,
        params: {
          ...emailParams(row, row.sub),
          ...(env().REFUND_UNCONSENTED_TRIALS ? { refundUnconsented: 1 } : {}),
        },
      });
    });
    if (queued) sent++;
  }
  return sent;
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
