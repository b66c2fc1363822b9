import 'server-only';
import { and, asc, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { orders, payments, subscriptions, users } from '../../db/schema';
import { env } from '../../env';
import { lockOrder, lockSubscription } from './billing-locks';
import { queueEmail } from '../messaging';
import { queueReceipt } from './receipts';
import { isDue } from './subscription-machine';
import { applySubscriptionEvent, emailParams, locationSharedSince, withOrder, type Billing } from './subscriptions';

// What the once-a-minute billing job (./billing-cycle.ts) does to due subscriptions: charges the sandbox renewals (the
// machine's rules, ./subscription-machine.ts; docs/rules.md "States"; Stripe renews by itself and reports by webhook)
// and sends the trial reminder before a trial converts (docs/features.md "Payments and subscriptions"). Each picks its
// candidates with `dueSubscriptionIds` and checks them again where it acts.

/**
 * Whether the trial of `row` waits for the unconsented-trial decision instead of converting: the setting
 * REFUND_UNCONSENTED_TRIALS is on, it is a trial, and no location was shared since its order was paid.
 */
async function awaitsTrialRefund(tx: Tx, row: Billing): Promise<boolean> {
  if (!env().REFUND_UNCONSENTED_TRIALS || row.sub.status !== 'trialing' || !row.order.paidAt) return false;
  return !(await locationSharedSince(tx, row.sub.userId, row.order.paidAt));
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
