import 'server-only';
import type PgBoss from 'pg-boss';
import { OUTBOX_QUEUE } from './queues';
import { getDbState, isShutdownError, type Db } from '../db/client';
import { env } from '../env';
import { consentSmsSent } from '../services/locate';
import {
  PROBE_INTERVAL_MS,
  ProviderHealth,
  deliverOutboxMessage,
  firstAttemptIds,
  probeWaitingProviders,
  retryTimesOf,
  wakeWaiting,
} from '../services/messaging';
import { OutboxListener } from './outbox-listener';
import { emailProvider, type EmailProvider } from '../providers/email';
import { smsProvider, type SmsProvider } from '../providers/sms';
import { log } from '../observability/log';
import { timedJob } from '../observability/metrics';
import { describeError } from '../observability/describe-error';
import { enqueueAfterCommit, enqueueOutbox, sendOutboxJobs } from './boss-client';

// The outbox's workers in this process (docs/decisions/0005-outbox-with-pg-boss.md): the delivery worker, the
// listener that hears new messages at commit, the timed retries and the provider probe.

/**
 * Retries due within this time (ms) are enqueued by the worker that recorded the failure, on a timer, instead of
 * waiting for the minute sweep: the first retries of the schedule (10 s, 30 s, ...) keep their time. Later ones are
 * the sweep's (a minute late at most, against a wait of 15 minutes or more).
 */
const TIMED_RETRY_MS = 5 * 60_000;

/** How many outbox rows one fetch of the delivery worker takes, delivered side by side. */
const OUTBOX_BATCH = 8;

/** The providers a delivery uses instead of the configured ones (EMAIL_PROVIDER, SMS_PROVIDER), for tests. */
type Providers = { email?: EmailProvider; sms?: SmsProvider };

/** Runs `fn` in `ms` unless pg-boss stops first. */
type Later = (ms: number, fn: () => Promise<unknown>) => void;

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
  providers: Providers = {},
  listenUrl?: string,
): Promise<{ health: ProviderHealth; listener: OutboxListener }> {
  // What this process knows of the providers; when one answers again, what waits for it is due and enqueued at once.
  const health = new ProviderHealth(async (channel) => enqueueOutbox(await wakeWaiting(db, channel)));
  const timers = stoppableTimers();
  const wake = await workOutbox(boss, db, { ...providers, health }, (ids) => retrySoon(db, ids, timers.later));
  const listener = new OutboxListener({
    url: listenUrl ?? env().DATABASE_SESSION_URL ?? (await getDbState()).url,
    db,
    deliver: async (messages) => {
      await sendOutboxJobs(boss, messages);
      wake();
    },
    waiting: () => firstAttemptIds(db),
  });
  const round = async () => {
    try {
      const current = { email: providers.email ?? emailProvider(), sms: providers.sms ?? smsProvider() };
      await probeWaitingProviders(db, health, current);
    } catch (error) {
      if (!isShutdownError(error)) log().error({ component: 'outbox', err: describeError(error) }, 'probe failed');
    }
    timers.later(PROBE_INTERVAL_MS, round);
  };
  boss.on('stopped', () => {
    timers.stop();
    void listener.close();
  });
  timers.later(PROBE_INTERVAL_MS, round);
  await listener.start();
  return { health, listener };
}

/**
 * Registers the delivery worker on `boss`: up to OUTBOX_BATCH rows a fetch, delivered side by side (with `providers`
 * and the process's `health`), the rows left waiting for a retry handed to `retry`. Returns what wakes the worker
 * (pg-boss `notifyWorker`) for a job just sent.
 */
async function workOutbox(
  boss: PgBoss,
  db: Db,
  providers: Providers & { health: ProviderHealth },
  retry: (ids: string[]) => Promise<void>,
): Promise<() => void> {
  let workerId: string | null = null;
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
          jobs.map((job) => deliverOutboxMessage(db, job.data.id, { ...providers, smsSent: consentSmsSent })),
        );
        const waiting = jobs.filter((_job, i) => results[i].status === 'fulfilled' && results[i].value === 'queued');
        await retry(waiting.map((job) => job.data.id));
        const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure) throw failure.reason;
      }),
  );
  return () => {
    if (workerId) boss.notifyWorker(workerId);
  };
}

/** Enqueues each of `ids` (rows waiting for a retry) at its next attempt, when that is within TIMED_RETRY_MS. */
async function retrySoon(db: Db, ids: string[], later: Later): Promise<void> {
  try {
    for (const { id, nextAttemptAt } of await retryTimesOf(db, ids)) {
      const wait = nextAttemptAt.getTime() - Date.now();
      if (wait <= TIMED_RETRY_MS) later(wait, () => enqueueAfterCommit([id]));
    }
  } catch (error) {
    // The minute sweep enqueues them instead.
    if (!isShutdownError(error)) log().error({ component: 'outbox', err: describeError(error) }, 'retry timer failed');
  }
}

/** Unref'd timers that end with pg-boss: `later` runs a function after a wait, `stop` clears them all for good. */
function stoppableTimers(): { later: Later; stop: () => void } {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  return {
    later: (ms, fn) => {
      if (stopped) return;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          if (!stopped) void fn();
        },
        Math.max(ms, 0),
      ).unref();
      timers.add(timer);
    },
    stop: () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
