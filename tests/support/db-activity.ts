import { sql } from 'drizzle-orm';
import { getDb } from '@/server/db/client';

/**
 * How many connections to this test's database sit in an open transaction doing nothing (`pg_stat_activity.state`
 * 'idle in transaction', PostgreSQL docs "The Cumulative Statistics System"): a transaction waiting on a network
 * call shows up here. Asked on a connection of its own pool (this one is 'active').
 */
export async function idleInTransaction(): Promise<number> {
  const { rows } = await (
    await getDb()
  ).execute(
    sql`select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state like 'idle in transaction%'`,
  );
  return (rows[0] as { n: number }).n;
}
