import 'server-only';
import { and, eq, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { retryOnConnectionLoss, type Db, type Tx } from '../../db/client';
import { outboundMessages, type OutboundMessage } from '../../db/schema';
import { emailProvider, type EmailProvider } from '../../providers/email';
import { smsProvider, type SmsProvider } from '../../providers/sms';
import { devOutboxEnabled, env } from '../../env';
import { log } from '../../observability/log';
import { metrics } from '../../observability/metrics';
import { describeError } from '../../observability/describe-error';
import type { ProviderHealth } from './outbox-recovery';
import { queueEmail, type PushFallback } from './outbox-queue';
import { isLastAttempt, LEASE_MS, leaseExpired, nextAttemptAfter } from './outbox-schedule';
import { pushToUser, type PushFanOut } from './web-push';

// Delivery of one outbox row (docs/decisions/0005-outbox-with-pg-boss.md; its states in docs/rules.md#states): claim
// it, hand it to its provider with no transaction open (docs/decisions/0009-no-network-call-inside-a-transaction.md),
// record the outcome; a push goes to the buyer's devices and falls back to e-mail. Secrets leave the row once the
// message is handed over (docs/rules.md, "Retention"). When a failed attempt is tried again is ./outbox-schedule.ts.

/**
 * The columns that replace a message's secret-bearing texts by their redacted rendering. Applied when
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
/** What becomes of a location request when its consent SMS is sent, in the transaction that records the row as sent. */
export type SmsSentStep = (tx: Tx, locationRequestId: string) => Promise<unknown>;

/**
 * Delivers one outbox row through its provider (docs/rules.md#data: `queued -> sent -> delivered | failed`), in three
 * steps so that no database transaction or pooled connection is held during the provider call:
 * 1. claim: one conditional UPDATE moves a due `queued` row (or a `sending` row whose lease has run out) to `sending`
 *    with a lease of LEASE_MS and counts the attempt; a row another job holds, or not yet due, is left alone, so a
 *    message is sent once however many jobs run for it;
 * 2. the provider call (providers have connection and socket timeouts of a few seconds); e-mails carry a stable
 *    Message-ID made from the row id, so a retry after an unknown outcome can be recognised downstream;
 * 3. record: `sent` (secrets redacted; for a consent SMS, `smsSent` moves its request `queued -> sms_sent` in the same
 *    transaction), or back to `queued` with `nextAttemptAt` from RETRY_SCHEDULE_MS, or `failed` once isLastAttempt
 *    (secrets redacted).
 * The minute sweep enqueues rows that are due again. Delivery is at least once: a crash between the provider's
 * acceptance and step 3 sends the message again after the lease (with the same Message-ID).
 * With `health` (the job worker's ProviderHealth, services/outbox-recovery.ts), the outcome also tells whether the
 * provider answers: a success marks it up (and, when it was down or not yet known, makes every message waiting for
 * it due at once); a failure the provider calls an outage (its `isOutage`) marks it down. A failure of that
 * recovery is logged; it never changes this delivery's result.
 * `smsSent` is locate's step for a consent SMS the provider accepted (services/locate `consentSmsSent`), handed in by
 * the job worker (server/jobs/outbox-workers.ts): the outbox does not import locate, which imports messaging
 * (docs/decisions/0020-domain-folders.md). Without it a sent row of a request moves nothing.
 * Returns the row's status afterwards, or null when the row does not exist.
 */
export async function deliverOutboxMessage(
  db: Db,
  id: string,
  providers: { email?: EmailProvider; sms?: SmsProvider; health?: ProviderHealth; smsSent?: SmsSentStep } = {},
): Promise<string | null> {
  const now = new Date();
  const email = providers.email ?? emailProvider();
  const sms = providers.sms ?? smsProvider();
  const { health } = providers;
  const row = await claimRow(db, id, now);
  if (!row) {
    const [current] = await db
      .select({ status: outboundMessages.status })
      .from(outboundMessages)
      .where(eq(outboundMessages.id, id));
    return current?.status ?? null;
  }
  if (row.channel === 'push') return deliverPush(db, row, providers);
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
    if ((row.channel === 'email' ? email : sms).isOutage?.(error)) health?.down(row.channel);
    return recordFailure(db, row, provider, error);
  }
  await recordSent(db, row, provider, providerMessageId, providers.smsSent);
  await health
    ?.answered(row.channel)
    .catch((error: unknown) => log().error({ component: 'outbox', err: describeError(error) }, 'recovery failed'));
  return 'sent';
}

/**
 * Step 1 of deliverOutboxMessage: one conditional UPDATE moves row `id` to `sending` with a lease of LEASE_MS from
 * `now` and counts the attempt, when it is `queued` and due or its lease has run out. Returns the claimed row, or
 * undefined when it does not exist, another job holds it, or it is not due yet.
 */
async function claimRow(db: Db, id: string, now: Date): Promise<OutboundMessage | undefined> {
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
  return row;
}

/**
 * Step 3 of deliverOutboxMessage after `provider` refused `row` or did not answer (`error`): back to `queued` with its
 * next attempt from RETRY_SCHEDULE_MS, or `failed` (secrets redacted) once isLastAttempt. Returns that status.
 */
async function recordFailure(
  db: Db,
  row: OutboundMessage,
  provider: string,
  error: unknown,
): Promise<'failed' | 'queued'> {
  const failed = isLastAttempt(row.attempts, row.createdAt, new Date());
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
      .where(and(eq(outboundMessages.id, row.id), eq(outboundMessages.status, 'sending'))),
  );
  metrics().deliveries.inc({ channel: row.channel, outcome: failed ? 'failed' : 'retry' });
  return failed ? 'failed' : 'queued';
}

/**
 * Step 3 of deliverOutboxMessage once `provider` accepted `row` (as `providerMessageId`): `sent`, secrets redacted
 * unless keepsSecrets, and for a consent SMS `smsSent` in the same transaction; the delivery counted and its latency
 * (s since the row was written) observed.
 */
async function recordSent(
  db: Db,
  row: OutboundMessage,
  provider: string,
  providerMessageId: string | null,
  smsSent: SmsSentStep | undefined,
): Promise<void> {
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
        .where(eq(outboundMessages.id, row.id));
      if (row.locationRequestId) await smsSent?.(tx, row.locationRequestId);
    }),
  );
  metrics().deliveries.inc({ channel: row.channel, outcome: 'sent' });
  metrics().deliveryLatency.observe({ channel: row.channel }, (Date.now() - row.createdAt.getTime()) / 1000);
}

/**
 * Attempts at a push before its alert goes by e-mail (with RETRY_SCHEDULE_MS, about 40 s): an alert is news only while
 * it is fresh, and e-mail gets through when a push service does not answer.
 */
export const PUSH_ATTEMPTS = 3;

/**
 * Delivers a claimed outbox row of channel `push` (services/locate/buyer-alerts.ts): its body goes to every device of
 * the buyer (`recipient`, a user id) through services/web-push.ts, outside any transaction.
 * - Some device took it: `sent` (`providerMessageId` says how many of how many).
 * - A device failed in a way that may pass (network, 429, 5xx) and none took it: back to `queued` for the retry
 *   schedule, like any message, for PUSH_ATTEMPTS attempts in all.
 * - No device took it and none may later (the buyer has none left, or all are gone), or the last of PUSH_ATTEMPTS
 *   failed: the alert goes by e-mail instead (the row's `payload.fallback`, e-mail being the default channel). The row is `failed`
 *   with the reason, the e-mail is written in the same transaction and delivered at once.
 * Returns the row's status afterwards.
 */
async function deliverPush(
  db: Db,
  row: typeof outboundMessages.$inferSelect,
  providers: { email?: EmailProvider; sms?: SmsProvider; health?: ProviderHealth },
): Promise<string> {
  let fanOut: PushFanOut;
  try {
    fanOut = await pushToUser(db, row.recipient, row.body, (row.payload?.requestId as string)?.replaceAll('-', ''));
  } catch (error) {
    fanOut = { sent: 0, gone: 0, failed: 1, lastError: String((error as Error)?.message ?? error).slice(0, 300) };
  }
  const total = fanOut.sent + fanOut.gone + fanOut.failed;
  if (fanOut.sent > 0) {
    await retryOnConnectionLoss(() =>
      db
        .update(outboundMessages)
        .set({
          status: 'sent',
          provider: 'web-push',
          providerMessageId: `${fanOut.sent}/${total} devices`,
          lastError: null,
          leaseUntil: null,
          nextAttemptAt: null,
          sentAt: new Date(),
        })
        .where(eq(outboundMessages.id, row.id)),
    );
    metrics().deliveries.inc({ channel: 'push', outcome: 'sent' });
    return 'sent';
  }
  if (fanOut.failed > 0 && row.attempts < PUSH_ATTEMPTS) {
    await retryOnConnectionLoss(() =>
      db
        .update(outboundMessages)
        .set({
          provider: 'web-push',
          status: 'queued',
          lastError: fanOut.lastError ?? 'push failed',
          leaseUntil: null,
          nextAttemptAt: nextAttemptAfter(row.attempts, new Date()),
        })
        .where(and(eq(outboundMessages.id, row.id), eq(outboundMessages.status, 'sending'))),
    );
    metrics().deliveries.inc({ channel: 'push', outcome: 'retry' });
    return 'queued';
  }
  const fallback = row.payload?.fallback as PushFallback | undefined;
  const emailId = await db.transaction(async (tx) => {
    await tx
      .update(outboundMessages)
      .set({
        provider: 'web-push',
        status: 'failed',
        lastError: `no device took it (${total ? `${fanOut.gone} gone, ${fanOut.failed} failed` : 'none left'})${fallback ? '; sent by e-mail' : ''}`,
        leaseUntil: null,
        nextAttemptAt: null,
      })
      .where(eq(outboundMessages.id, row.id));
    return fallback ? queueEmail(tx, { ...fallback, locale: row.locale }) : null;
  });
  metrics().deliveries.inc({ channel: 'push', outcome: 'failed' });
  if (emailId) await deliverOutboxMessage(db, emailId, providers);
  return 'failed';
}
/** The e-mail Message-ID of outbox row `id` (RFC 5322): the same on every attempt, so duplicates are recognisable. */
export function messageIdOf(id: string): string {
  return `<${id}@${new URL(env().APP_ORIGIN).hostname}>`;
}
