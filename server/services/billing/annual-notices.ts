import 'server-only';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { env } from '../../env';
import { issueCancelLink } from './cancel-links';
import { formatMoney } from '../money';
import { emailDateTime, queueEmail } from '../messaging';
import { nextAnniversary } from './subscription-machine';
import { dueSubscriptionIds } from './renewals';
import { withOrder } from './subscriptions';

// The annual reminder of an automatic renewal (California's automatic-renewal law as amended by AB 2863: once a year,
// the terms and how to cancel), sent by the billing job (./billing-cycle.ts) with a one-click cancel link
// (./cancel-links.ts).

/** How long the one-click cancel link of an annual reminder works: 30 days, so it outlives the next charge. */
export const ANNUAL_CANCEL_LINK_TTL_MS = 30 * 24 * 3600_000;

/**
 * The annual reminder (California Business and Professions Code section 17602(b), as amended by AB 2863: at least once a
 * year, the terms of an automatic renewal and how to cancel): ANNUAL_NOTICE_DAYS (default 7) before each yearly
 * anniversary of a subscription's start, an `active` subscription that is not cancelled gets an e-mail with the
 * monthly price, the next charge date and a one-click cancel link (a single-use `/cancel/?token=` link valid
 * ANNUAL_CANCEL_LINK_TTL_MS, ./cancel-links.ts). Sandbox and Stripe alike. Once per anniversary: the send is
 * claimed by a conditional update of `reminder_sent_at` (the last reminder queued, trial or annual) that succeeds
 * only when it is older than this anniversary's window, so concurrent runs send one e-mail. Texts: messages/*.json
 * `Email.annual*`. Returns how many were queued.
 */
export async function sendAnnualNotices(db: Db, now: Date = new Date()): Promise<number> {
  const days = env().ANNUAL_NOTICE_DAYS;
  // The next anniversary after `now` in SQL (interval years clamp 29 February as `addMonths` does) minus the notice.
  const windowStart = sql`(${subscriptions.createdAt} + (date_part('year', age(${now}::timestamptz, ${subscriptions.createdAt})) + 1) * interval '1 year' - ${days} * interval '1 day')`;
  const due = await dueSubscriptionIds(
    db,
    and(
      eq(subscriptions.status, 'active'),
      isNull(subscriptions.cancelAt),
      sql`${windowStart} <= ${now}`,
      or(isNull(subscriptions.reminderSentAt), sql`${subscriptions.reminderSentAt} < ${windowStart}`),
    ),
  );
  let sent = 0;
  for (const id of due) {
    const queued = await db.transaction(async (tx) => {
      const row = await withOrder(tx, id);
      if (!row) return null;
      const anniversary = nextAnniversary(row.sub.createdAt, now);
      const start = new Date(anniversary.getTime() - days * 86_400_000);
      if (start > now) return null;
      const [claimed] = await tx
        .update(subscriptions)
        .set({ reminderSentAt: now })
        .where(
          and(
            eq(subscriptions.id, id),
            eq(subscriptions.status, 'active'),
            isNull(subscriptions.cancelAt),
            or(isNull(subscriptions.reminderSentAt), sql`${subscriptions.reminderSentAt} < ${start}`),
          ),
        )
        .returning({ id: subscriptions.id });
      if (!claimed) return null;
      const locale = row.order.locale;
      return queueEmail(tx, {
        to: row.email,
        template: 'annual-notice',
        locale,
        params: {
          order: row.order.reference,
          start: emailDateTime(row.sub.createdAt, locale),
          monthly: formatMoney(row.price.monthlyPriceMinor, row.price.currency, locale),
          next: emailDateTime(row.sub.currentPeriodEnd, locale),
          descriptor: env().BILLING_DESCRIPTOR,
          link: await issueCancelLink(tx, row.sub.userId, locale, ANNUAL_CANCEL_LINK_TTL_MS, now),
        },
      });
    });
    if (queued) sent++;
  }
  return sent;
}
