import 'server-only';
import { ACCESS_STATUSES, hasAccess } from '../../../lib/subscription-access';
import { and, count, desc, eq, gte, inArray, isNull, not, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { locationRequests, orders, priceSetups, subscriptions } from '../../db/schema';
import { FINAL_STATES } from '../../../lib/request-machine';

// Whether a buyer may locate now and how much of the subscription's quota is used (docs/rules.md "Payments",
// lib/subscription-access.ts): read where a request is made, where a consent is recorded and where each position is
// stored.

/** The subscriber's newest trialing or active subscription with its quota, or null when none gives access now. */
async function liveSubscription(db: Db | Tx, userId: string) {
  const [sub] = await db
    .select({ sub: subscriptions, quota: priceSetups.geolocationsPerPeriod })
    .from(subscriptions)
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .innerJoin(priceSetups, eq(priceSetups.id, orders.priceSetupId))
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...ACCESS_STATUSES])))
    .orderBy(desc(subscriptions.currentPeriodEnd))
    .limit(1);
  return sub && hasAccess(sub.sub, new Date()) ? sub : null;
}

/**
 * Whether `userId` may locate now (lib/subscription-access.ts `hasAccess`): checked where a consent is recorded and where
 * each position is stored, so no position reaches a buyer without access.
 */
export async function buyerHasAccess(db: Db | Tx, userId: string): Promise<boolean> {
  return (await liveSubscription(db, userId)) !== null;
}

/**
 * `buyerHasAccess` as an SQL condition on the buyer id `userId` (a column or a value) at `now`, for a statement that
 * checks access where it writes (services/locate/owner-signals.ts `savePosition`): true when one of the buyer's
 * subscriptions is in ACCESS_STATUSES and its period ends after `now`.
 */
export function buyerHasAccessSql(userId: SQLWrapper, now: Date): SQL {
  return sql`exists (select 1 from ${subscriptions} where ${subscriptions.userId} = ${userId}
    and ${inArray(subscriptions.status, [...ACCESS_STATUSES])} and ${subscriptions.currentPeriodEnd} > ${now})`;
}

/**
 * The subscriber's live subscription and how much of its quota is used. A request counts unless it was declined or
 * expired without ever sharing (its credit comes back). The period starts at the subscription's start or 30 days
 * before its current period end, whichever is later. Null without access (lib/subscription-access.ts `hasAccess`:
 * trialing or active and inside the period; `past_due` suspends access).
 */
export async function quotaOf(db: Db | Tx, userId: string) {
  const sub = await liveSubscription(db, userId);
  if (!sub) return null;
  const periodStart = new Date(
    Math.max(sub.sub.createdAt.getTime(), sub.sub.currentPeriodEnd.getTime() - 30 * 24 * 3600_000),
  );
  const [{ used }] = await db
    .select({ used: count() })
    .from(locationRequests)
    .where(
      and(
        eq(locationRequests.userId, userId),
        gte(locationRequests.createdAt, periodStart),
        not(and(inArray(locationRequests.status, [...FINAL_STATES]), isNull(locationRequests.firstSharedAt))!),
      ),
    );
  return { used, quota: sub.quota, periodEnd: sub.sub.currentPeriodEnd };
}
