import 'server-only';
import { and, desc, eq, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { retryOnConnectionLoss, type Db } from '../db/client';
import { locationRequests, outboundMessages } from '../db/schema';
import { emailProvider, type EmailProvider } from '../providers/email';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { devOutboxEnabled, env } from '../env';
import { metrics } from '../observability/metrics';

/** Deliveries tried per message before it is marked `failed`: the first and one per RETRY_SCHEDULE_MS step. */
export const MAX_DELIVERY_ATTEMPTS = 8;

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
 * Waits before the retries of a failed delivery (ms), spread over more than 24 hours so a provider outage of minutes
 * or hours loses nothing (issue 16 §6): 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, each ±20 % (jitter).
 */
export const RETRY_SCHEDULE_MS = [1, 5, 30, 120, 360, 720, 1440].map((minutes) => minutes * 60_000);

/** How long a worker owns a message it is sending; a crashed delivery is tried again after it (ms). */
export const LEASE_MS = 2 * 60_000;

/** A `sending` row whose worker's lease ran out at `now` (the worker crashed): another may take it. */
const leaseExpired = (now: Date) => and(eq(outboundMessages.status, 'sending'), lt(outboundMessages.leaseUntil, now));

/** When attempt `attempts` (1-based) failed at `now`, the next one may start at the returned time. */
export function nextAttemptAfter(attempts: number, now: Date, random = Math.random): Date {
  const wait = RETRY_SCHEDULE_MS[Math.min(attempts, RETRY_SCHEDULE_MS.length) - 1];
  return new Date(now.getTime() + wait * (0.8 + 0.4 * random()));
}

/**
 * Delivers one outbox row through its provider (ARCHITECTURE §4: `queued -> sent -> delivered | failed`), in three
 * steps so that no database transaction or pooled connection is held during the provider call (issue 16 §6):
 * 1. claim: one conditional UPDATE moves a due `queued` row (or a `sending` row whose lease has run out) to `sending`
 *    with a lease of LEASE_MS and counts the attempt; a row another job holds, or not yet due, is left alone, so a
 *    message is sent once however many jobs run for it;
 * 2. the provider call (providers have connection and socket timeouts of a few seconds); e-mails carry a stable
 *    Message-ID made from the row id, so a retry after an unknown outcome can be recognised downstream;
 * 3. record: `sent` (secrets redacted, a consent SMS moves its request `queued -> sms_sent`), or back to `queued` with
 *    `nextAttemptAt` from RETRY_SCHEDULE_MS, or `failed` after MAX_DELIVERY_ATTEMPTS (secrets redacted).
 * The minute sweep enqueues rows that are due again. Delivery is at least once: a crash between the provider's
 * acceptance and step 3 sends the message again after the lease (with the same Message-ID).
 * Returns the row's status afterwards, or null when the row does not exist.
 */
export async function deliverOutboxMessage(
  db: Db,
  id: string,
  providers: { email?: EmailProvider; sms?: SmsProvider } = {},
): Promise<string | null> {
  const now = new Date();
  const email = providers.email ?? emailProvider();
  const sms = providers.sms ?? smsProvider();
  const [row] = await db
    .update(outboundMessages)
    .set({
      status: 'sending',
      attempts: sql`${outboundMessages.attempts} + 1`,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
    })
    .where(
      and(
        eq(outboundMessages.id, id),
        or(
          and(
            eq(outboundMessages.status, 'queued'),
            or(isNull(outboundMessages.nextAttemptAt), lte(outboundMessages.nextAttemptAt, now)),
          ),
          leaseExpired(now),
        ),
      ),
    )
    .returning();
  if (!row) {
    const [current] = await db
      .select({ status: outboundMessages.status })
      .from(outboundMessages)
      .where(eq(outboundMessages.id, id));
    return current?.status ?? null;
  }
  const provider = row.channel === 'email' ? email.name : sms.name;
  let providerMessageId: string | null;
  try {
    providerMessageId =
      row.channel === 'email'
        ? await email.send({
            to: row.recipient,
            subject: row.subject ?? '',
            text: row.body,
            html: row.html,
            messageId: messageIdOf(row.id),
          })
        : await sms.send({
            to: row.recipient,
            body: row.body,
            statusCallback: `${env().APP_ORIGIN}/api_f/v1/webhooks/twilio`,
          });
  } catch (error) {
    const failed = row.attempts >= MAX_DELIVERY_ATTEMPTS;
    // The outcome is recorded even across a database restart: the write is tried again while the connection is lost.
    await retryOnConnectionLoss(() =>
      db
        .update(outboundMessages)
        .set({
          provider,
          lastError: String((error as Error).message ?? error).slice(0, 500),
          status: failed ? 'failed' : 'queued',
          leaseUntil: null,
          nextAttemptAt: failed ? null : nextAttemptAfter(row.attempts, new Date()),
          ...(failed ? redaction : {}),
        })
        .where(and(eq(outboundMessages.id, id), eq(outboundMessages.status, 'sending'))),
    );
    metrics().deliveries.inc({ channel: row.channel, outcome: failed ? 'failed' : 'retry' });
    return failed ? 'failed' : 'queued';
  }
  // Recorded even across a database restart (the provider already has the message; without this the row would wait
  // for its lease to run out and be sent a second time).
  await retryOnConnectionLoss(() =>
    db.transaction(async (tx) => {
      await tx
        .update(outboundMessages)
        .set({
          status: 'sent',
          provider,
          providerMessageId,
          lastError: null,
          leaseUntil: null,
          nextAttemptAt: null,
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
    }),
  );
  metrics().deliveries.inc({ channel: row.channel, outcome: 'sent' });
  metrics().deliveryLatency.observe({ channel: row.channel }, (Date.now() - row.createdAt.getTime()) / 1000);
  return 'sent';
}

/**
 * E-mails to `address` that have not arrived (issue 16 §6): `failed` ones, and `queued` ones whose last attempt
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

/** The e-mail Message-ID of outbox row `id` (RFC 5322): the same on every attempt, so duplicates are recognisable. */
export function messageIdOf(id: string): string {
  return `<${id}@${new URL(env().APP_ORIGIN).hostname}>`;
}

/**
 * Outbox rows to (re)enqueue (the minute sweep): `queued` rows that are due (a retry whose time has come, or a first
 * attempt waiting over a minute, e.g. its enqueue was lost) and `sending` rows whose lease ran out (a crashed worker).
 */
export async function dueOutboxIds(db: Db, now = new Date(), limit = 100): Promise<string[]> {
  const rows = await db
    .select({ id: outboundMessages.id })
    .from(outboundMessages)
    .where(
      or(
        and(
          eq(outboundMessages.status, 'queued'),
          or(
            lte(outboundMessages.nextAttemptAt, now),
            and(
              isNull(outboundMessages.nextAttemptAt),
              lt(outboundMessages.createdAt, new Date(now.getTime() - 60_000)),
            ),
          ),
        ),
        leaseExpired(now),
      ),
    )
    // Oldest first, so a backlog is worked off in order and none waits behind newer rows for ever.
    .orderBy(outboundMessages.createdAt)
    .limit(limit);
  return rows.map((r) => r.id);
}
