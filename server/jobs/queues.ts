import 'server-only';
import type PgBoss from 'pg-boss';

/** Queue of outbox rows to deliver; payload `{ id }` of an `outbound_messages` row. */
export const OUTBOX_QUEUE = 'outbox-deliver';
/** Cron queue that enqueues outbox rows due again (retries, lost enqueues, expired leases) and stranded ad events. */
export const SWEEP_QUEUE = 'outbox-sweep';
/** Cron queue of the location-request upkeep: expiry, end of sharing windows, position retention. */
export const LOCATE_QUEUE = 'locate-maintenance';
/** Cron queue of sandbox renewals, retries of failed renewals and trial reminders (services/billing/renewals.ts). */
export const BILLING_QUEUE = 'billing-cycle';
/** Daily cron queue deleting tracking rows older than TRACKING_RETENTION_DAYS. */
export const TRACKING_RETENTION_QUEUE = 'tracking-retention';
/** Queue of ad events to forward to the Meta Conversions API; payload `{ id }` of an `ad_events` row. */
export const AD_FORWARD_QUEUE = 'ad-forward';
/** Queue of reverse username lookups to run; payload `{ idHash }` of a `username_checks` row. */
export const USERNAME_QUEUE = 'username-check';
/**
 * pg-boss 10's own queue through which every `schedule` (cron) sends its jobs (`QUEUES.SEND_IT` in pg-boss's
 * src/timekeeper.js). pg-boss creates it when it starts with scheduling on; the owner's preparation starts pg-boss with
 * `schedule: false`, and the app's role may not create a queue (DDL), so without this the crons never fire.
 */
export const PGBOSS_CRON_QUEUE = '__pgboss__send-it';

/**
 * Creates every queue of the product (idempotent: pg-boss 10's `createQueue` inserts with ON CONFLICT DO NOTHING and
 * makes the queue's table only the first time). Creating one is DDL (a partition of `pgboss.job`), so the database's
 * owner does it before the app's restricted role starts (server/db/prepare.ts); the app calls it again, which then
 * only finds the queues there. The outbox queue is `stately`: at most one queued and one active job per outbox row (its
 * id is the singleton key), so the sweep cannot queue a second job for a row that has one; updateQueue converts a
 * queue made before that policy. pg-boss's cron queue (PGBOSS_CRON_QUEUE) is created here too.
 */
export async function createQueues(boss: PgBoss): Promise<void> {
  await boss.createQueue(PGBOSS_CRON_QUEUE);
  await boss.createQueue(OUTBOX_QUEUE, { name: OUTBOX_QUEUE, policy: 'stately' });
  await boss.updateQueue(OUTBOX_QUEUE, { name: OUTBOX_QUEUE, policy: 'stately' });
  for (const name of [
    SWEEP_QUEUE,
    LOCATE_QUEUE,
    BILLING_QUEUE,
    AD_FORWARD_QUEUE,
    TRACKING_RETENTION_QUEUE,
    USERNAME_QUEUE,
  ]) {
    await boss.createQueue(name);
  }
}
