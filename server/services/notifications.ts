import 'server-only';
import { and, count, eq, gt } from 'drizzle-orm';
import { prefixOf, type AppLocale } from '../../lib/routing/rules';
import type { Db, Tx } from '../db/client';
import { locationRequests, orders, positions, users, type LocationRequest } from '../db/schema';
import { env } from '../env';
import { queueEmail } from './outbox-queue';

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

/** E-mails the buyer that the owner started sharing, with the map link, in the buyer's order language; the outbox id. */
export async function emailSharingStarted(tx: Tx, request: LocationRequest): Promise<string> {
  const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId));
  const [order] = request.orderId
    ? await tx.select({ locale: orders.locale }).from(orders).where(eq(orders.id, request.orderId))
    : [];
  const locale = order?.locale ?? 'en';
  const link = `${env().APP_ORIGIN}${prefixOf(locale as AppLocale)}/map/?id=${request.id}`;
  return queueEmail(tx, {
    to: buyer.email,
    template: 'sharing-started',
    locale,
    params: { phone: request.targetE164, link },
  });
}
