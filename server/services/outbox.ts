import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { locationRequests, outboundMessages } from '../db/schema';
import { emailProvider, type EmailProvider } from '../providers/email';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { env } from '../env';

/** Deliveries tried per message before it is marked `failed` (pg-boss retries with jittered exponential backoff). */
export const MAX_DELIVERY_ATTEMPTS = 6;

/**
 * Delivers one outbox row through its provider (ARCHITECTURE §4: `queued -> sent -> delivered | failed`). The row is
 * locked while sending, and a row that is not `queued` is left alone, so a message is sent once even when its job
 * runs twice. A provider failure counts an attempt, records the error and rethrows (the job is retried); the last
 * allowed attempt marks the row `failed`. A delivered consent SMS moves its request `queued -> sms_sent`.
 * Returns the row's status afterwards, or null when the row does not exist.
 */
export async function deliverOutboxMessage(
  db: Db,
  id: string,
  providers: { email?: EmailProvider; sms?: SmsProvider } = {},
): Promise<string | null> {
  const outcome = await db.transaction(async (tx): Promise<{ status: string | null; error?: unknown }> => {
    const [row] = await tx.select().from(outboundMessages).where(eq(outboundMessages.id, id)).for('update').limit(1);
    if (!row) return { status: null };
    if (row.status !== 'queued') return { status: row.status };
    const attempts = row.attempts + 1;
    const email = providers.email ?? emailProvider();
    const sms = providers.sms ?? smsProvider();
    const provider = row.channel === 'email' ? email.name : sms.name;
    let providerMessageId: string | null;
    try {
      providerMessageId =
        row.channel === 'email'
          ? await email.send({ to: row.recipient, subject: row.subject ?? '', text: row.body, html: row.html })
          : await sms.send({
              to: row.recipient,
              body: row.body,
              statusCallback: `${env().APP_ORIGIN}/api_f/v1/webhooks/twilio`,
            });
    } catch (error) {
      const failed = attempts >= MAX_DELIVERY_ATTEMPTS;
      await tx
        .update(outboundMessages)
        .set({
          attempts,
          provider,
          lastError: String((error as Error).message ?? error).slice(0, 500),
          status: failed ? 'failed' : 'queued',
        })
        .where(eq(outboundMessages.id, id));
      // The failure is committed (attempt counted); the caller rethrows so the job is retried.
      return { status: failed ? 'failed' : 'queued', error: failed ? undefined : error };
    }
    await tx
      .update(outboundMessages)
      .set({ status: 'sent', provider, attempts, providerMessageId, lastError: null, sentAt: new Date() })
      .where(eq(outboundMessages.id, id));
    if (row.locationRequestId) {
      await tx
        .update(locationRequests)
        .set({ status: 'sms_sent' })
        .where(and(eq(locationRequests.id, row.locationRequestId), eq(locationRequests.status, 'queued')));
    }
    return { status: 'sent' };
  });
  if (outcome.error) throw outcome.error;
  return outcome.status;
}
