import 'server-only';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboundMessages } from '../../db/schema';
import { DomainError, notFound } from '../../errors';
import type { OperatorView } from './types';
import { audit } from './audit';

// The console's message desk: e-mails and SMS that did not go out, and their retry.

/**
 * Messages that did not reach their provider: `failed` ones, and `queued` ones waiting for a retry after an error
 * (newest first, at most 200). Bodies are never returned (they may carry a consent link or a temporary password until
 * redacted): channel, recipient, template, subject, attempts, the last error and the next attempt.
 */
export async function undeliveredMessages(db: Db) {
  return db
    .select({
      id: outboundMessages.id,
      channel: outboundMessages.channel,
      recipient: outboundMessages.recipient,
      template: outboundMessages.template,
      subject: outboundMessages.subject,
      status: outboundMessages.status,
      attempts: outboundMessages.attempts,
      lastError: outboundMessages.lastError,
      nextAttemptAt: outboundMessages.nextAttemptAt,
      redacted: sql<boolean>`${outboundMessages.redactedAt} is not null`,
      createdAt: outboundMessages.createdAt,
    })
    .from(outboundMessages)
    .where(
      or(
        eq(outboundMessages.status, 'failed'),
        and(eq(outboundMessages.status, 'queued'), sql`${outboundMessages.lastError} is not null`),
      ),
    )
    .orderBy(desc(outboundMessages.createdAt))
    .limit(200);
}

/**
 * Puts a failed (or retry-waiting) message back in the queue for a new round of attempts, due at once, and audits
 * `message.retry`. A message finally failed has had its secrets removed, so it is re-sent as redacted
 * (the buyer asks for a reset code instead of a lost temporary password). Other states: 409. Returns the row id to
 * enqueue.
 */
export async function retryMessage(db: Db, operator: OperatorView, id: string, reason: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(outboundMessages)
      .set({ status: 'queued', attempts: 0, nextAttemptAt: null, leaseUntil: null })
      .where(
        and(
          eq(outboundMessages.id, id),
          or(
            eq(outboundMessages.status, 'failed'),
            and(eq(outboundMessages.status, 'queued'), sql`${outboundMessages.lastError} is not null`),
          ),
        ),
      )
      .returning({ id: outboundMessages.id, channel: outboundMessages.channel, template: outboundMessages.template });
    if (!row) {
      const [exists] = await tx
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(eq(outboundMessages.id, id));
      if (!exists) throw notFound();
      throw new DomainError('conflict', 'Api.conflict');
    }
    await audit(tx, operator, 'message.retry', { type: 'message', id }, reason, {
      channel: row.channel,
      template: row.template,
    });
    return row.id;
  });
}
