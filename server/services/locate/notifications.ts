import 'server-only';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locationRequests, users } from '../../db/schema';

// The buyer's notifications count (docs/features.md): how many of their requests have news since they last looked at
// their locations (`users.notifications_seen_at`). A read of `location_requests`; nothing is sent.

/** When `userId` last looked at their locations (the epoch before a first look). */
export async function notificationsSeenAt(db: Db, userId: string): Promise<Date> {
  const [user] = await db.select({ seenAt: users.notificationsSeenAt }).from(users).where(eq(users.id, userId));
  return user?.seenAt ?? new Date(0);
}

/**
 * Whether a request has news for its buyer since `since`: the owner moved it on (opened the link, shared, stopped,
 * declined) or it ended (expired, withdrawn), a GPS position arrived, or its consent SMS failed. The buyer's own
 * steps are not news: a request they just made, queued and sent, is shown by its state line, not counted. The same
 * test marks a row `updated` in the list and counts `notificationsTotal`, so the count matches the rows shown.
 */
export function updatedSince(since: Date) {
  return sql<boolean>`((${locationRequests.updatedAt} > ${since} and ${locationRequests.status} not in ('queued', 'sms_sent')) or exists (select 1 from positions p where p.request_id = ${locationRequests.id} and p.source = 'gps' and p.recorded_at > ${since}) or exists (select 1 from outbound_messages m where m.location_request_id = ${locationRequests.id} and m.status = 'failed' and m.updated_at > ${since}))`;
}

/**
 * SPEC's `notificationsTotal`: how many of the subscriber's requests have news (`updatedSince`) since they last
 * looked at their locations (`since`, from `notificationsSeenAt`; the epoch before a first look).
 */
export async function notificationsTotal(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(locationRequests)
    .where(and(eq(locationRequests.userId, userId), updatedSince(since)));
  return row.n;
}

/** Marks everything up to now as seen. */
export async function markNotificationsSeen(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ notificationsSeenAt: new Date() }).where(eq(users.id, userId));
}
