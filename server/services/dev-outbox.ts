import 'server-only';
import { desc } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outboundMessages, type OutboundMessage } from '../db/schema';

/**
 * The newest `limit` e-mails and SMS of the outbox, newest first, for the development view `GET /dev/outbox`
 * (shown only while DEV_OUTBOX allows it; the caller checks).
 */
export async function latestOutboundMessages(db: Db, limit = 100): Promise<OutboundMessage[]> {
  return db.select().from(outboundMessages).orderBy(desc(outboundMessages.createdAt)).limit(limit);
}
