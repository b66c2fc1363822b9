import 'server-only';
import type PgBoss from 'pg-boss';
import {
  AD_FORWARD_QUEUE,
  BILLING_QUEUE,
  LOCATE_QUEUE,
  OUTBOX_QUEUE,
  SWEEP_QUEUE,
  TRACKING_RETENTION_QUEUE,
  USERNAME_QUEUE,
} from './queues';
import { getDbState, type Db } from '../db/client';
import { env } from '../env';
import { runLocateMaintenance } from '../services/locate';
import { purgeSubscriptionConsents, runBillingCycle } from '../services/billing';
import { forwardAdEvent, unsentAdEventIds } from '../services/ad-events';
import { pruneTracking } from '../services/events';
import { pruneSafety } from '../services/safety';
import { dueOutboxIds, pollSmsStatuses, redactHandedOver } from '../services/messaging';
import { pruneLookups, runUsernameCheck } from '../services/lookups';
import { smsProvider } from '../providers/sms';
import { timedJob } from '../observability/metrics';
import { enqueueAdForward, enqueueOutbox, getBoss } from './boss-client';
import { startOutboxWorkers } from './outbox-workers';

// The job workers of this process: what each queue runs and when. The process's pg-boss and the sends the app makes
// on it are ./boss-client.ts, the outbox's delivery ./outbox-workers.ts; their names are exported here too, where the
// entry points and the tests have always taken them.

export { OUTBOX_QUEUE, AD_FORWARD_QUEUE, USERNAME_QUEUE };
export { enqueueAdForward, enqueueAfterCommit, enqueueOutbox, enqueueUsernameCheck, getBoss } from './boss-client';
export { startOutboxWorkers } from './outbox-workers';

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
