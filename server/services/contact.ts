import 'server-only';
import type { Db } from '../db/client';
import { supportMessages } from '../db/schema';
import { env } from '../env';
import { queueEmail } from './messaging';

/** A message from the contact form (/contact-us), validated: name, e-mail, text and the page's locale. */
export type ContactMessage = { name: string; email: string; message: string; locale: string };

/**
 * Stores a contact-form message (e-mail lower-cased, with the sender's IP or null) and, in the same transaction,
 * queues its copy to SUPPORT_EMAIL in English (the support desk's language), sent once the transaction commits.
 */
export async function storeContactMessage(db: Db, input: ContactMessage, ip: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(supportMessages).values({ ...input, email: input.email.toLowerCase(), ip });
    await queueEmail(tx, {
      to: env().SUPPORT_EMAIL,
      template: 'contact-message',
      locale: 'en',
      params: { name: input.name, email: input.email, message: input.message },
    });
  });
}
