import 'server-only';
import PgBoss from 'pg-boss';
import { AD_FORWARD_QUEUE, OUTBOX_QUEUE, USERNAME_QUEUE, createQueues } from './queues';
import { getDbState, isShutdownError } from '../db/client';
import { log } from '../observability/log';
import { describeError } from '../observability/describe-error';

// The process's pg-boss and the jobs the app sends on it (docs/decisions/0005-outbox-with-pg-boss.md): what a web
// request or a worker enqueues. The workers that run them are registered by server/jobs/boss.ts.

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

/**
 * Sends one delivery job per id on `boss` (see enqueueOutbox), at its channel's priority when known (`channel` as the
 * outbox row has it: `sms`, `push`, `email`; an unknown or missing one is priority 0). Rejects when pg-boss does.
 */
export async function sendOutboxJobs(boss: PgBoss, messages: { id: string; channel?: string }[]): Promise<void> {
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
