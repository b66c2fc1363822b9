import 'server-only';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { locationRequests, outboundMessages } from '../db/schema';
import { emailProvider, type EmailProvider } from '../providers/email';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { devOutboxEnabled, env } from '../env';

/** Deliveries tried per message before it is marked `failed` (pg-boss retries with jittered exponential backoff). */
export const MAX_DELIVERY_ATTEMPTS = 6;

/**
 * The columns that replace a message's secret-bearing texts by their redacted rendering (issue 12 §7). Applied when
 * delivery no longer needs the secret: once a real provider has the message, once it has finally failed, and for
 * the demo `outbox` provider (whose row is the delivery) only while `/dev/outbox` is off.
 */
const redaction = {
  body: sql`coalesce(${outboundMessages.redacted}->>'body', ${outboundMessages.body})`,
  html: sql`coalesce(${outboundMessages.redacted}->>'html', ${outboundMessages.html})`,
  redacted: null,
  redactedAt: sql`now()`,
};

/** Whether a message handed to `provider` may keep its secrets: only the demo outbox while /dev/outbox shows it. */
function keepsSecrets(provider: string): boolean {
  return provider === 'outbox' && devOutboxEnabled();
}

/**
 * Redacts every handed-over message that still holds a secret (the minute sweep): after `/dev/outbox` is turned off,
 * the demo outbox's rows lose their secrets too. Returns how many rows were redacted.
 */
export async function redactHandedOver(db: Db): Promise<number> {
  if (devOutboxEnabled()) return 0;
  const rows = await db
    .update(outboundMessages)
    .set(redaction)
    .where(and(isNotNull(outboundMessages.redacted), ne(outboundMessages.status, 'queued')))
    .returning({ id: outboundMessages.id });
  return rows.length;
}

/**
 * Delivers one outbox row through its provider (ARCHITECTURE §4: `queued -> sent -> delivered | failed`). The row is
 * locked while sending, and a row that is not `queued` is left alone, so a message is sent once even when its job
 * runs twice. A provider failure counts an attempt, records the error and rethrows (the job is retried); the last
 * allowed attempt marks the row `failed`. A delivered consent SMS moves its request `queued -> sms_sent`. Secrets in
 * the texts are redacted once handed over or finally failed (`redaction`).
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
          ...(failed ? redaction : {}),
        })
        .where(eq(outboundMessages.id, id));
      // The failure is committed (attempt counted); the caller rethrows so the job is retried.
      return { status: failed ? 'failed' : 'queued', error: failed ? undefined : error };
    }
    await tx
      .update(outboundMessages)
      .set({
        status: 'sent',
        provider,
        attempts,
        providerMessageId,
        lastError: null,
        sentAt: new Date(),
        ...(keepsSecrets(provider) ? {} : redaction),
      })
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
