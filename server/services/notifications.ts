import 'server-only';
import { and, count, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { locationRequests, positions, users } from '../db/schema';

/**
 * SPEC's `notificationsTotal`: how many of the subscriber's requests changed status and how many GPS positions
 * arrived since they last looked at their locations (all of them before a first look).
 */
export async function notificationsTotal(db: Db, userId: string): Promise<number> {
  const [user] = await db.select({ seenAt: users.notificationsSeenAt }).from(users).where(eq(users.id, userId));
  const since = user?.seenAt ?? new Date(0);
  const [[changed], [arrived]] = await Promise.all([
    db
      .select({ n: count() })
      .from(locationRequests)
      .where(and(eq(locationRequests.userId, userId), gt(locationRequests.updatedAt, since))),
    db
      .select({ n: count() })
      .from(positions)
      .innerJoin(locationRequests, eq(locationRequests.id, positions.requestId))
      .where(and(eq(locationRequests.userId, userId), eq(positions.source, 'gps'), gt(positions.recordedAt, since))),
  ]);
  return changed.n + arrived.n;
}

/** Marks everything up to now as seen. */
export async function markNotificationsSeen(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ notificationsSeenAt: new Date() }).where(eq(users.id, userId));
}
