import 'server-only';
import { emailDateTime } from './templates';
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { domainEvents, orders, payments, priceSetups, subscriptions, users } from '../db/schema';
import type { Subscription } from '../db/schema';
import { env } from '../env';
import { prefixOf, type AppLocale } from '../../lib/routing/rules';
import { formatMoney } from './money';
import { queueEmail } from './outbox-queue';
import { withdrawRequests } from './requests';
import { isDue, transition, type SubscriptionEvent, type SubscriptionState } from './subscription-machine';

/**
 * Applies `event` to subscription `id` inside `tx` (row locked), writes the change and a `subscription.<event>`
 * domain event. A subscription that ends (`canceled`: refund, cancellation at period end, failed renewals) withdraws
 * the buyer's open requests unless another subscription still gives access (issue 12 §5). Returns the new row, or
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

/** The subscription, its order and price, for e-mails and charges. */
async function withOrder(tx: Tx | Db, id: string) {
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
    link: `${env().APP_ORIGIN}${prefixOf(locale as AppLocale)}/dashboard/billing/`,
    descriptor: env().BILLING_DESCRIPTOR,
  };
}

/**
 * Charges one due sandbox renewal at `now` (SPEC §4): a subscription whose cancel date has come is canceled without a
 * charge; otherwise the monthly price is charged (the sandbox card's renewal behaviour decides the outcome), a
 * `payments` row is written and the machine moves to `active` or `past_due`. A failure e-mails the subscriber.
 * Returns the outbox ids to enqueue. Skips rows another worker holds (`skip locked`).
 */
async function renewOne(db: Db, id: string, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.id, id))
      .for('update', { skipLocked: true });
    if (!locked) return [];
    const row = await withOrder(tx, id);
    if (!row || !isDue(row.sub, now)) return [];
    if (row.sub.cancelAt && row.sub.cancelAt <= now) {
      await applySubscriptionEvent(tx, id, { type: 'period_ended', at: now });
      return [];
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
      if (next)
        await tx
          .update(users)
          .set({ paymentCount: sql`${users.paymentCount} + 1` })
          .where(eq(users.id, row.sub.userId));
      return [];
    }
    const failuresInARow = await failedInARow(tx, id);
    const next = await applySubscriptionEvent(tx, id, { type: 'renewal_failed', at: now, failuresInARow });
    if (!next) return [];
    const template = next.status === 'canceled' ? 'subscription-ended' : 'renewal-failed';
    return [
      await queueEmail(tx, { to: row.email, template, locale: row.order.locale, params: emailParams(row, next) }),
    ];
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
 * The billing job (every minute): renews every due sandbox subscription and queues the trial reminders. Stripe
 * subscriptions are renewed by Stripe and arrive as webhooks. Returns the outbox ids to enqueue.
 */
export async function runBillingCycle(db: Db, now: Date = new Date()): Promise<string[]> {
  const due = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'sandbox'),
        or(
          and(inArray(subscriptions.status, ['trialing', 'active']), lte(subscriptions.currentPeriodEnd, now)),
          and(eq(subscriptions.status, 'past_due'), lte(subscriptions.nextRetryAt, now)),
        ),
      ),
    )
    .orderBy(asc(subscriptions.currentPeriodEnd))
    .limit(200);
  const ids: string[] = [];
  for (const { id } of due) ids.push(...(await renewOne(db, id, now)));
  ids.push(...(await sendTrialReminders(db, now)));
  return ids;
}

/**
 * Queues the e-mail that tells a trial subscriber when the trial converts and for how much, TRIAL_REMINDER_HOURS
 * before it does (once per subscription; not for cancelled trials). Returns the outbox ids.
 */
export async function sendTrialReminders(db: Db, now: Date = new Date()): Promise<string[]> {
  const horizon = new Date(now.getTime() + env().TRIAL_REMINDER_HOURS * 3600_000);
  const due = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.status, 'trialing'),
        isNull(subscriptions.cancelAt),
        isNull(subscriptions.reminderSentAt),
        lte(subscriptions.currentPeriodEnd, horizon),
        sql`${subscriptions.currentPeriodEnd} > ${now}`,
      ),
    )
    .limit(200);
  const ids: string[] = [];
  for (const { id } of due) {
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
        params: emailParams(row, row.sub),
      });
    });
    if (queued) ids.push(queued);
  }
  return ids;
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
 * Cancels every live subscription of `userId` at its next billing date (SPEC §4): the current period stays active,
 * a trial cancelled before it ends is never charged. `cancelAtProvider` is called first for provider-managed
 * (Stripe) subscriptions. Queues a confirmation e-mail. Returns the cancel dates and the outbox ids; no live
 * subscription → `[]` and nothing is sent.
 */
export async function cancelSubscriptions(
  db: Db,
  userId: string,
  cancelAtProvider: (sub: Subscription) => Promise<void>,
  now: Date = new Date(),
): Promise<{ cancelAt: Date[]; outboxIds: string[] }> {
  const live = await liveSubscriptions(db, userId);
  for (const sub of live) if (sub.provider !== 'sandbox' && !sub.cancelAt) await cancelAtProvider(sub);
  return db.transaction(async (tx) => {
    const cancelAt: Date[] = [];
    const outboxIds: string[] = [];
    for (const sub of live) {
      const next = await applySubscriptionEvent(tx, sub.id, { type: 'cancel_requested', at: now });
      if (!next) continue;
      cancelAt.push(next.cancelAt ?? next.canceledAt ?? now);
      const row = (await withOrder(tx, sub.id))!;
      outboxIds.push(
        await queueEmail(tx, {
          to: row.email,
          template: 'subscription-canceled',
          locale: row.order.locale,
          params: { ...emailParams(row, next), date: emailDateTime(next.cancelAt ?? now, row.order.locale) },
        }),
      );
    }
    return { cancelAt, outboxIds };
  });
}
