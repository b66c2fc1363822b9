import 'server-only';
import { and, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboundMessages, type OutboundMessage } from '../../db/schema';

// What the outbox shows people: the development view of the latest messages (docs/running.md, DEV_OUTBOX), and the
// e-mails to an account's address that did not arrive (docs/features.md, "Undelivered mail is said, not hidden": the
// account page lists them with the time of the next attempt).

/**
 * The newest `limit` e-mails and SMS of the outbox, newest first, for the development view `GET /dev/outbox`
 * (shown only while DEV_OUTBOX allows it; the caller checks).
 */
export async function latestOutboundMessages(db: Db, limit = 100): Promise<OutboundMessage[]> {
  return db.select().from(outboundMessages).orderBy(desc(outboundMessages.createdAt)).limit(limit);
}

/**
 * E-mails to `address` that have not arrived: `failed` ones, and `queued` ones whose last attempt
 * failed (they will be tried again at `nextAttemptAt`), from the last 30 days, newest first, at most 10.
 */
export async function undeliveredEmailsTo(db: Db, address: string) {
  const rows = await db
    .select({
      subject: outboundMessages.subject,
      createdAt: outboundMessages.createdAt,
      status: outboundMessages.status,
      nextAttemptAt: outboundMessages.nextAttemptAt,
    })
    .from(outboundMessages)
    .where(
      and(
        eq(outboundMessages.channel, 'email'),
        eq(outboundMessages.recipient, address.toLowerCase()),
        sql`${outboundMessages.createdAt} > now() - interval '30 days'`,
        or(
          eq(outboundMessages.status, 'failed'),
          and(eq(outboundMessages.status, 'queued'), isNotNull(outboundMessages.lastError)),
        ),
      ),
    )
    .orderBy(desc(outboundMessages.createdAt))
    .limit(10);
  return rows as (Omit<(typeof rows)[number], 'status'> & { status: 'queued' | 'failed' })[];
}
