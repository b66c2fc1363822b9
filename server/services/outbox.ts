import 'server-only';
import { and, desc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { retryOnConnectionLoss, type Db } from '../db/client';
import { outboundMessages } from '../db/schema';
import { emailProvider, type EmailProvider } from '../providers/email';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { devOutboxEnabled, env } from '../env';
import { log } from '../observability/log';
import { metrics } from '../observability/metrics';
import { describeError } from '../observability/describe-error';
import type { ProviderHealth } from './outbox-recovery';
import { applyEvent } from './request-transitions';
import type { PushFallback } from './buyer-alerts';
import { queueEmail } from './outbox-queue';
import { pushToUser, type PushFanOut } from './web-push';

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

/**
 * The retry schedule of a failed delivery: the wait (ms) after failed attempt n is entry n-1; past the table, its last
 * entry (an hour) repeats. 10 s, 30 s, 1 min, 2 min, 5 min, 15 min, 30 min, 1 h, then hourly: a message that met a
 * blip (a server restart, a refused connection) goes out seconds later, and one that meets a long outage is tried
 * every hour until DELIVERY_HORIZON_MS. Each wait is spread by ±RETRY_JITTER so that the messages of one failed
 * burst do not all come back in the same second (equal jitter as in the AWS Architecture Blog's "Exponential Backoff
 * And Jitter"; bounded both ways, so the horizon below is exact). Waiting messages do not depend on the schedule to
 * leave once the provider is back: services/outbox-recovery.ts makes them due as soon as it answers again.
 */
export const RETRY_SCHEDULE_MS = [10, 30, 60, 120, 300, 900, 1_800, 3_600].map((seconds) => seconds * 1000);

/** The spread of each retry wait: a factor drawn uniformly in [1 - RETRY_JITTER, 1 + RETRY_JITTER]. */
export const RETRY_JITTER = 0.2;

/** How long a message keeps being retried before it may be marked `failed` (ms): an outage of a day loses nothing. */
export const DELIVERY_HORIZON_MS = 24 * 3_600_000;

/** The wait (ms, before jitter) after failed attempt `attempts` (1-based) of RETRY_SCHEDULE_MS. */
function retryWait(attempts: number): number {
  return RETRY_SCHEDULE_MS[Math.min(Math.max(attempts, 1), RETRY_SCHEDULE_MS.length) - 1];
}

/**
 * Attempts per message before it may be marked `failed`: the first plus as many retries as the schedule needs to span
 * DELIVERY_HORIZON_MS even when every wait is at its shortest (-RETRY_JITTER). With the table above: 38.
 */
export const MAX_DELIVERY_ATTEMPTS = (() => {
  let attempts = 1;
  for (let spanned = 0; spanned < DELIVERY_HORIZON_MS; attempts++) spanned += retryWait(attempts) * (1 - RETRY_JITTER);
  return attempts;
})();

/**
 * Whether a delivery that failed at `now`, as attempt `attempts` of a message created at `createdAt`, is the last
 * one: at least MAX_DELIVERY_ATTEMPTS attempts *and* DELIVERY_HORIZON_MS since the message was written. Both, so that
 * neither attempts spent early (a recovery that made the message due while the provider still refused it) nor an
 * operator's retry of an old message (which starts a new round of attempts) ends the message before a full round.
 */
export function isLastAttempt(attempts: number, createdAt: Date, now: Date): boolean {
  return attempts >= MAX_DELIVERY_ATTEMPTS && now.getTime() - createdAt.getTime() >= DELIVERY_HORIZON_MS;
}

/** How long a worker owns a message it is sending; a crashed delivery is tried again after it (ms). */
export const LEASE_MS = 2 * 60_000;

/** A `sending` row whose worker's lease ran out at `now` (the worker crashed): another may take it. */
const leaseExpired = (now: Date) => and(eq(outboundMessages.status, 'sending'), lt(outboundMessages.leaseUntil, now));

/**
 * When attempt `attempts` (1-based) failed at `now`, the next one may start at the returned time: now plus the
 * schedule's wait (RETRY_SCHEDULE_MS) times a factor in [1 - RETRY_JITTER, 1 + RETRY_JITTER] from `random` (0..1).
 */
export function nextAttemptAfter(attempts: number, now: Date, random = Math.random): Date {
  return new Date(now.getTime() + retryWait(attempts) * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/**
 * Delivers one outbox row through its provider (docs/rules.md#data: `queued -> sent -> delivered | failed`), in three
 * steps so that no database transaction or pooled connection is held during the provider call:
 * 1. claim: one conditional UPDATE moves a due `queued` row (or a `sending` row whose lease has run out) to `sending`
 *    with a lease of LEASE_MS and counts the attempt; a row another job holds, or not yet due, is left alone, so a
 *    message is sent once however many jobs run for it;
 * 2. the provider call (providers have connection and socket timeouts of a few seconds); e-mails carry a stable
 *    Message-ID made from the row id, so a retry after an unknown outcome can be recognised downstream;
 * 3. record: `sent` (secrets redacted, a consent SMS moves its request `queued -> sms_sent`), or back to `queued` with
 *    `nextAttemptAt` from RETRY_SCHEDULE_MS, or `failed` once isLastAttempt (secrets redacted).
 * The minute sweep enqueues rows that are due again. Delivery is at least once: a crash between the provider's
 * acceptance and step 3 sends the message again after the lease (with the same Message-ID).
 * With `health` (the job worker's ProviderHealth, services/outbox-recovery.ts), the outcome also tells whether the
 * provider answers: a success marks it up (and, when it was down or not yet known, makes every message waiting for
 * it due at once); a failure the provider calls an outage (its `isOutage`) marks it down. A failure of that
 * recovery is logged; it never changes this delivery's result.
 * Returns the row's status afterwards, or null when the row does not exist.
 */
export async function deliverOutboxMessage(
  db: Db,
  id: string,
  providers: { email?: EmailProvider; sms?: SmsProvider; health?: ProviderHealth } = {},
): Promise<string | null> {
  const now = new Date();
  const email = providers.email ?? emailProvider();
  const sms = providers.sms ?? smsProvider();
  const { health } = providers;
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
        await applyEvent(tx, row.locationRequestId, 'sms_accepted');
      }
    }),
  );
  metrics().deliveries.inc({ channel: row.channel, outcome: 'sent' });
  metrics().deliveryLatency.observe({ channel: row.channel }, (Date.now() - row.createdAt.getTime()) / 1000);
  await health
    ?.answered(row.channel)
    .catch((error: unknown) => log().error({ component: 'outbox', err: describeError(error) }, 'recovery failed'));
  return 'sent';
}

/**
 * Delivers a claimed outbox row of channel `push` (services/buyer-alerts.ts): its body goes to every device of the
 * buyer (`recipient`, a user id) through services/web-push.ts, outside any transaction.
 * - Some device took it: `sent` (`providerMessageId` says how many of how many).
 * - A device failed in a way that may pass (network, 429, 5xx) and none took it: back to `queued` for the retry
 *   schedule, like any message, for PUSH_ATTEMPTS attempts in all.
 * - No device took it and none may later (the buyer has none left, or all are gone), or the last of PUSH_ATTEMPTS
 *   failed: the alert goes by e-mail instead (the row's `payload.fallback`, e-mail being the default channel). The row is `failed`
 *   with the reason, the e-mail is written in the same transaction and delivered at once.
 * Returns the row's status afterwards.
 */
/**
 * Attempts at a push before its alert goes by e-mail (with RETRY_SCHEDULE_MS, about 40 s): an alert is news only while
 * it is fresh, and e-mail gets through when a push service does not answer.
 */
export const PUSH_ATTEMPTS = 3;

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

/**
 * Ids and channels of up to `limit` rows waiting for their first attempt (`queued`, no retry time), oldest first: what was written
 * while no process heard the outbox's announcements (server/jobs/outbox-listener.ts reads them after reconnecting, and
 * every second while it cannot hear).
 */
export async function firstAttemptIds(db: Db, limit = 100): Promise<{ id: string; channel: string }[]> {
  return db
    .select({ id: outboundMessages.id, channel: outboundMessages.channel })
    .from(outboundMessages)
    .where(and(eq(outboundMessages.status, 'queued'), isNull(outboundMessages.nextAttemptAt)))
    .orderBy(outboundMessages.createdAt)
    .limit(limit);
}

/**
 * The next attempt times of the `queued` rows among `ids` that wait for a retry (`nextAttemptAt` set), for the job
 * worker to enqueue retries that come sooner than the minute sweep would notice them.
 */
export async function retryTimesOf(db: Db, ids: string[]): Promise<{ id: string; nextAttemptAt: Date }[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: outboundMessages.id, nextAttemptAt: outboundMessages.nextAttemptAt })
    .from(outboundMessages)
    .where(
      and(
        inArray(outboundMessages.id, ids),
        eq(outboundMessages.status, 'queued'),
        isNotNull(outboundMessages.nextAttemptAt),
      ),
    );
  return rows as { id: string; nextAttemptAt: Date }[];
}
