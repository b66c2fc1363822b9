import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** The job queue as the health check reports it. */
export type QueueState = {
  /** Jobs waiting to run (created or waiting for a retry), all queues. */
  depth: number;
  /** Age of the oldest waiting job that is due, seconds (one decimal); 0 when none. */
  oldestJobAgeSeconds: number;
  /** Jobs running now. */
  active: number;
};

/** Asks the database for `select 1`; rejects when it does not answer. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * The pg-boss queue's waiting and running jobs (schema `pgboss`, table `job`, pg-boss 10: states `created`, `retry`,
 * `active`). Before pg-boss has created its schema (no worker started yet) the queue is reported empty.
 */
export async function queueState(db: Db): Promise<QueueState> {
  const [exists] = (await db.execute(sql`select to_regclass('pgboss.job') is not null as present`)).rows as {
    present: boolean;
  }[];
  if (!exists?.present) return { depth: 0, oldestJobAgeSeconds: 0, active: 0 };
  const [row] = (
    await db.execute(sql`
      select count(*) filter (where state in ('created', 'retry'))::int as depth,
             count(*) filter (where state = 'active')::int as active,
             coalesce(extract(epoch from now() - min(start_after) filter (
               where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest
        from pgboss.job`)
  ).rows as { depth: number; active: number; oldest: number }[];
  return { depth: row.depth, active: row.active, oldestJobAgeSeconds: Math.round(row.oldest * 10) / 10 };
}
