import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { locationRequests, outboundMessages } from '../db/schema';
import { env } from '../env';

/**
 * Delivers one outbox row through the configured provider. The `outbox` providers store only: the row moves
 * `queued -> sent`, and a consent SMS moves its location request `queued -> sms_sent`. Idempotent: a row that is
 * not `queued` is left alone. Returns the row's new status, or null when the row does not exist.
 */
export async function deliverOutboxMessage(db: Db, id: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(outboundMessages).where(eq(outboundMessages.id, id)).for('update').limit(1);
    if (!row) return null;
    if (row.status !== 'queued') return row.status;
    const provider = row.channel === 'sms' ? env().SMS_PROVIDER : env().EMAIL_PROVIDER;
    await tx
      .update(outboundMessages)
      .set({ status: 'sent', provider, attempts: row.attempts + 1, sentAt: new Date() })
      .where(eq(outboundMessages.id, id));
    if (row.locationRequestId) {
      await tx
        .update(locationRequests)
        .set({ status: 'sms_sent' })
        .where(and(eq(locationRequests.id, row.locationRequestId), eq(locationRequests.status, 'queued')));
    }
    return 'sent';
  });
}

/** Ids of rows still `queued` among `ids` (used by the sweep that re-enqueues missed rows). */
export async function queuedIds(db: Db, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: outboundMessages.id })
    .from(outboundMessages)
    .where(and(inArray(outboundMessages.id, ids), eq(outboundMessages.status, 'queued')));
  return rows.map((r) => r.id);
}
