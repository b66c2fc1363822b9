import 'server-only';
import PgBoss from 'pg-boss';
import {
  AD_FORWARD_QUEUE,
  BILLING_QUEUE,
  LOCATE_QUEUE,
  OUTBOX_QUEUE,
  SWEEP_QUEUE,
  TRACKING_RETENTION_QUEUE,
  USERNAME_QUEUE,
  createQueues,
} from './queues';
import { getDbState, type Db } from '../db/client';
import { isShutdownError } from '../db/client';
import { env } from '../env';
import { consentSmsSent, runLocateMaintenance } from '../services/locate';
import { purgeSubscriptionConsents, runBillingCycle } from '../services/billing';
import { forwardAdEvent, unsentAdEventIds } from '../services/ad-events';
import { pruneTracking } from '../services/events';
import { pruneSafety } from '../services/safety';
import {
  PROBE_INTERVAL_MS,
  ProviderHealth,
  deliverOutboxMessage,
  dueOutboxIds,
  firstAttemptIds,
  pollSmsStatuses,
  probeWaitingProviders,
  redactHandedOver,
  retryTimesOf,
  wakeWaiting,
} from '../services/messaging';
import { OutboxListener } from './outbox-listener';
import { emailProvider, type EmailProvider } from '../providers/email';
import { pruneLookups, runUsernameCheck } from '../services/lookups';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { log } from '../observability/log';
import { timedJob } from '../observability/metrics';
import { describeError } from '../observability/describe-error';

export { OUTBOX_QUEUE, AD_FORWARD_QUEUE, USERNAME_QUEUE };

const key = Symbol.for('app.boss');
const store = globalThis as unknown as { [key]?: Promise<PgBoss> };

/** The process's pg-boss instance (pg-boss 10, on the app database), started once. */
export function getBoss(): Promise<PgBoss> {
  store[key] ??= (async () => {
    const { url } = await getDbState();
    const boss = new PgBoss({ connectionString: url, max: 4 });
    boss.on('error', (error) => {
      if (!isShutdownError(error)) log().error({ component: 'pg-boss', err: describeError(error) }, 'job queue error');
    });
    await boss.start();
    await createQueues(boss);
    return boss;
  })().catch((error: unknown) => {
    delete store[key];
    throw error;
  });
  return store[key];
}

/**
 * Enqueues delivery of outbox rows that already exist (a new row needs no call: the outbox announces it when its
 * transaction commits, and OutboxListener enqueues it; this is for retries, the sweep and tests). Retries are not pg-boss's:
 * a failed attempt puts its row back to `queued` with its next time (services/messaging/outbox-schedule.ts) and the
 * minute sweep enqueues it then. The queue's `stately` policy keeps one waiting job per row (a second send while one
 * waits is dropped), and even two running jobs would send once: only one can claim the row's lease. A job of a crashed
 * worker expires after a minute.
 */
export async function enqueueOutbox(ids: string[]): Promise<void> {
  if (!ids.length) return;
  await sendOutboxJobs(
    await getBoss(),
    ids.map((id) => ({ id })),
  );
}

/**
 * Delivery priority by channel (pg-boss fetches higher first): under a burst the consent SMS, which a buyer and an
 * owner wait for, goes before the e-mails written with it.
 */
const PRIORITY: Record<string, number> = { sms: 2, push: 1 };

/** Sends one delivery job per id on `boss` (see enqueueOutbox), at its channel's priority when known. */
async function sendOutboxJobs(boss: PgBoss, messages: { id: string; channel?: string }[]): Promise<void> {
  await Promise.all(
    messages.map(({ id, channel }) =>
      boss.send(
        OUTBOX_QUEUE,
        { id },
        { singletonKey: id, expireInSeconds: 60, priority: PRIORITY[channel ?? ''] ?? 0 },
      ),
    ),
  );
}

/**
 * enqueueOutbox without failing the caller: if pg-boss is unreachable the rows stay `queued` and the sweep picks them
 * up within a minute.
 */
export function enqueueAfterCommit(ids: string[]): Promise<void> {
  return enqueueOutbox(ids).catch((error: unknown) =>
    log().error({ component: 'outbox', err: describeError(error) }, 'enqueue failed'),
  );
}

/**
 * Queues forwarding of an ad event (3 tries, backing off). A failure to enqueue only reaches the log: the row stays
 * `queued` and the minute sweep finds it.
 */
export function enqueueAdForward(id: string): Promise<void> {
  return getBoss()
    .then((boss) =>
      boss.send(AD_FORWARD_QUEUE, { id }, { singletonKey: id, retryLimit: 3, retryDelay: 30, retryBackoff: true }),
    )
    .then(() => undefined)
    .catch((error: unknown) => log().error({ component: 'ad-forward', err: describeError(error) }, 'enqueue failed'));
}

/**
 * Queues a username lookup. A lookup asks up to 716 sites, a few minutes at worst: the job may run 15
 * minutes; a crashed worker's job is run again once and resumes with the sites not answered yet.
 */
export async function enqueueUsernameCheck(idHash: string): Promise<void> {
  const boss = await getBoss();
  await boss.send(USERNAME_QUEUE, { idHash }, { singletonKey: idHash, expireInSeconds: 15 * 60, retryLimit: 1 });
}

/**
 * Retries due within this time (ms) are enqueued by the worker that recorded the failure, on a timer, instead of
 * waiting for the minute sweep: the first retries of the schedule (10 s, 30 s, ...) keep their time. Later ones are
 * the sweep's (a minute late at most, against a wait of 15 minutes or more).
 */
const TIMED_RETRY_MS = 5 * 60_000;

/** How many outbox rows one fetch of the delivery worker takes, delivered side by side. */
const OUTBOX_BATCH = 8;

/**
 * Registers outbox delivery on `boss` and starts its listener and provider probe, in this process.
 *
 * - Pick-up: every new message row is announced when its transaction commits (drizzle/0031); this process's
 *   OutboxListener (server/jobs/outbox-listener.ts) hears it, sends its job and wakes the worker (pg-boss
 *   `notifyWorker`), so a message leaves within milliseconds of its commit rather than at the next poll. Nothing
 *   else needs to enqueue a new message; the minute sweep stays the safety net (docs/decisions/0005-outbox-with-pg-boss.md).
 * - Delivery: up to OUTBOX_BATCH rows a fetch, delivered side by side, polled every 0.5 s when idle; a full fetch is
 *   followed by the next at once, so a burst drains at delivery speed, not 8 per poll. A failed attempt whose retry is
 *   due within TIMED_RETRY_MS is enqueued again at that time by this process (a timer; if the process ends first, the
 *   minute sweep finds the row).
 * - Probe (services/messaging/outbox-recovery.ts): every PROBE_INTERVAL_MS, a channel whose messages wait for a retry
 *   has its provider probed; when a provider answers again (that probe, or a delivery that succeeds), every message
 *   waiting for it is made due and enqueued at once. The next probe round starts PROBE_INTERVAL_MS after the previous
 *   one ends.
 *
 * Timers are unref'd and end with pg-boss, as does the listener; a failed round is logged and the loop goes on.
 * `providers` replaces the configured ones (EMAIL_PROVIDER, SMS_PROVIDER), for tests; `listenUrl` the connection the
 * listener uses (default DATABASE_SESSION_URL, else DATABASE_URL). Returns the process's ProviderHealth and listener.
 */
export async function startOutboxWorkers(
  boss: PgBoss,
  db: Db,
  providers: { email?: EmailProvider; sms?: SmsProvider } = {},
  listenUrl?: string,
): Promise<{ health: ProviderHealth; listener: OutboxListener }> {
  // What this process knows of the providers; when one answers again, what waits for it is due and enqueued at once.
  const health = new ProviderHealth(async (channel) => enqueueOutbox(await wakeWaiting(db, channel)));
  let workerId: string | null = null;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  /** Runs `fn` in `ms` unless pg-boss stops first. */
  const later = (ms: number, fn: () => Promise<unknown>) => {
    if (stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (!stopped) void fn();
      },
      Math.max(ms, 0),
    ).unref();
    timers.add(timer);
  };
  // Up to 8 rows a fetch, delivered side by side: below the pool's 10 connections, and a delivery holds none while
  // its provider call runs, so web requests always find one. A failed provider call is scheduled again by the row
  // itself (no rethrow); only a database error fails the job.
  workerId = await boss.work<{ id: string }>(
    OUTBOX_QUEUE,
    { pollingIntervalSeconds: 0.5, batchSize: OUTBOX_BATCH },
    (jobs) =>
      timedJob(OUTBOX_QUEUE, async () => {
        // A full fetch: more may wait; fetch again as soon as this one is done.
        if (jobs.length === OUTBOX_BATCH && workerId) boss.notifyWorker(workerId);
        const results = await Promise.allSettled(
          jobs.map((job) => deliverOutboxMessage(db, job.data.id, { ...providers, health, smsSent: consentSmsSent })),
        );
        const waiting = jobs.filter((_job, i) => results[i].status === 'fulfilled' && results[i].value === 'queued');
        await retrySoon(waiting.map((job) => job.data.id));
        const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure) throw failure.reason;
      }),
  );
  const listener = new OutboxListener({
    url: listenUrl ?? env().DATABASE_SESSION_URL ?? (await getDbState()).url,
    db,
    deliver: async (messages) => {
      await sendOutboxJobs(boss, messages);
      if (workerId) boss.notifyWorker(workerId);
    },
    waiting: () => firstAttemptIds(db),
  });
  /** Enqueues each of `ids` (rows waiting for a retry) at its next attempt, when that is within TIMED_RETRY_MS. */
  async function retrySoon(ids: string[]): Promise<void> {
    try {
      for (const { id, nextAttemptAt } of await retryTimesOf(db, ids)) {
        const wait = nextAttemptAt.getTime() - Date.now();
        if (wait <= TIMED_RETRY_MS) later(wait, () => enqueueAfterCommit([id]));
      }
    } catch (error) {
      // The minute sweep enqueues them instead.
      if (!isShutdownError(error))
        log().error({ component: 'outbox', err: describeError(error) }, 'retry timer failed');
    }
  }
  const round = async () => {
    try {
      const current = { email: providers.email ?? emailProvider(), sms: providers.sms ?? smsProvider() };
      await probeWaitingProviders(db, health, current);
    } catch (error) {
      if (!isShutdownError(error)) log().error({ component: 'outbox', err: describeError(error) }, 'probe failed');
    }
    later(PROBE_INTERVAL_MS, round);
  };
  boss.on('stopped', () => {
    stopped = true;
    void listener.close();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
  later(PROBE_INTERVAL_MS, round);
  await listener.start();
  return { health, listener };
}

/** Username lookups one process runs at once (docs/features.md "Reverse username lookup"). */
export const USERNAME_WORKERS = 4;

/**
 * Registers the username lookups' workers on `boss`: USERNAME_WORKERS of them, each taking one lookup at a time
 * (`run`, runUsernameCheck by default), so a lookup starts as soon as a worker is free. One worker taking batches
 * would not: pg-boss fetches its next batch only when the whole batch has ended, so a lookup queued while another
 * ran waited at 0 sites checked until that one had asked all its sites (pg-boss 10 `work`, `batchSize`).
 */
export async function startUsernameWorkers(
  boss: PgBoss,
  db: Db,
  run: (db: Db, idHash: string) => Promise<unknown> = runUsernameCheck,
): Promise<void> {
  for (let i = 0; i < USERNAME_WORKERS; i++) {
    await boss.work<{ idHash: string }>(USERNAME_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, ([job]) =>
      timedJob(USERNAME_QUEUE, async () => {
        if (job) await run(db, job.data.idHash);
      }),
    );
  }
}

/**
 * Registers the workers: outbox delivery (each new message picked up when its transaction commits) with its
 * provider probe every PROBE_INTERVAL_MS while messages wait for a retry (startOutboxWorkers), a once-a-minute sweep
 * of rows queued for over a minute, the once-a-minute location-request upkeep, and the once-a-minute billing cycle
 * (sandbox renewals due, retries of failed renewals on the next settlement day, reminders), ad-event forwarding to
 * Meta, the daily deletion of old tracking rows, and the reverse username lookups (up to 4 at once per process, each
 * asking its sites in parallel), whose results the minute sweep deletes after their hour.
 */
export async function startWorkers(): Promise<void> {
  const boss = await getBoss();
  const { db } = await getDbState();
  await startOutboxWorkers(boss, db);
  await boss.schedule(SWEEP_QUEUE, '* * * * *');
  await boss.work(SWEEP_QUEUE, () =>
    timedJob(SWEEP_QUEUE, async () => {
      // Username lookups past their hour, with their results.
      await pruneLookups(db);
      // Retries whose time has come, first attempts whose enqueue was lost, and deliveries of a crashed worker.
      await enqueueOutbox(await dueOutboxIds(db));
      // Secrets of handed-over messages, once /dev/outbox is off.
      await redactHandedOver(db);
      // SMS whose status callback never came.
      await pollSmsStatuses(db, smsProvider());
      // Ad events never tried a few minutes after they arrived (their enqueue failed).
      for (const id of await unsentAdEventIds(db)) await enqueueAdForward(id);
    }),
  );
  await boss.schedule(LOCATE_QUEUE, '* * * * *');
  await boss.work(LOCATE_QUEUE, () =>
    timedJob(LOCATE_QUEUE, async () => {
      // Its "no update for 5 minutes" alerts are announced by the outbox when written (OutboxListener).
      return runLocateMaintenance(db, env().POSITION_RETENTION_DAYS, env().CONSENT_RETENTION_DAYS);
    }),
  );
  await boss.work<{ id: string }>(AD_FORWARD_QUEUE, ([job]) =>
    timedJob(AD_FORWARD_QUEUE, async () => {
      if (job) await forwardAdEvent(db, job.data.id);
    }),
  );
  await boss.schedule(TRACKING_RETENTION_QUEUE, '17 3 * * *');
  await boss.work(TRACKING_RETENTION_QUEUE, () =>
    timedJob(TRACKING_RETENTION_QUEUE, async () => {
      await pruneTracking(db, env().TRACKING_RETENTION_DAYS);
      // Proof of consent to a subscription is kept 3 years by default, then deleted by the same daily run.
      await purgeSubscriptionConsents(db, env().SUBSCRIPTION_CONSENT_RETENTION_DAYS);
      // Ended safety-centre sessions and one-time codes.
      await pruneSafety(db);
    }),
  );
  await startUsernameWorkers(boss, db);
  await boss.schedule(BILLING_QUEUE, '* * * * *');
  await boss.work(BILLING_QUEUE, () =>
    timedJob(BILLING_QUEUE, async () => {
      // The reminders and receipts it writes are announced by the outbox when written (OutboxListener).
      await runBillingCycle(db);
    }),
  );
}
