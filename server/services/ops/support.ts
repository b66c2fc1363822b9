import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { supportMessages } from '../../db/schema';
import { notFound } from '../../errors';
import { queueEmail } from '../messaging';
import type { OperatorView } from './types';
import { audit } from './audit';

// The console's support desk: contact-form messages and replies.

/** Contact-form messages, newest first (at most 200), with when an operator last replied. */
export async function supportInbox(db: Db) {
  return db.select().from(supportMessages).orderBy(desc(supportMessages.createdAt)).limit(200);
}

/**
 * Replies by e-mail to a contact-form message (template `support-reply`, in the message's language, through the
 * outbox), marks it replied and audits `support.reply` (the reply's length, not its text). Unknown message: 404.
 * The reply e-mail is announced by the outbox at commit.
 */
export async function replySupport(db: Db, operator: OperatorView, id: string, reply: string): Promise<void> {
  return db.transaction(async (tx) => {
    const [message] = await tx
      .update(supportMessages)
      .set({ repliedAt: new Date() })
      .where(eq(supportMessages.id, id))
      .returning();
    if (!message) throw notFound();
    await queueEmail(tx, {
      to: message.email,
      template: 'support-reply',
      locale: message.locale,
      params: { name: message.name, reply },
    });
    await audit(tx, operator, 'support.reply', { type: 'support_message', id }, undefined, { length: reply.length });
  });
}
