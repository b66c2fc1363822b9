import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import PgBoss from 'pg-boss';
import { Pool, escapeIdentifier } from 'pg';
import { createQueues } from '../jobs/queues';

/**
 * The database's owner side (docs/deploy.md, "The database roles"): the schema, its migrations and the job queue's
 * tables belong to an owner role; the app connects as a role that owns nothing and holds only the privileges granted
 * here, so it cannot disable the append-only triggers of `consents` and `operator_audit` (ALTER TABLE needs the
 * owner), truncate a table, or set `session_replication_role` (superuser only).
 */

/** Where drizzle-kit writes the migrations and their journal. */
const MIGRATIONS = path.join(process.cwd(), 'drizzle');

/**
 * Applies the migrations in `drizzle/` while holding a session-level advisory lock on a connection of its own, so
 * several instances starting at once apply them once: the others wait, then find nothing left to apply. A role that
 * may not create objects in the database (the app's restricted role) applies nothing: it only checks that every
 * migration is there, and throws a message naming `npm run db:migrate` and `MIGRATION_DATABASE_URL` otherwise.
 */
export async function migrateOnce(db: NodePgDatabase<Record<string, unknown>>, pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ create: boolean; role: string }>(
      "select has_database_privilege(current_database(), 'CREATE') as create, current_user as role",
    );
    if (!rows[0].create) return await assertMigrated(client, rows[0].role);
    await client.query("select pg_advisory_lock(hashtext('app-migrations'))");
    try {
      await migrate(db, { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('app-migrations'))");
    }
  } finally {
    client.release();
  }
}

/** Throws when the database lacks migrations of drizzle/meta/_journal.json that `role` may not apply. */
async function assertMigrated(client: import('pg').PoolClient, role: string): Promise<void> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const last = Math.max(...journal.entries.map((e) => e.when));
  const { rows } = await client
    .query<{ latest: string | null }>('select max(created_at) as latest from drizzle.__drizzle_migrations')
    .catch(() => ({ rows: [{ latest: null }] }));
  if (Number(rows[0].latest ?? 0) < last) {
    throw new Error(
      `The database lacks migrations, and this process's role (${role}) may not apply them: run ` +
        '`npm run db:migrate` with MIGRATION_DATABASE_URL set to the owner role (docs/deploy.md).',
    );
  }
}

/**
 * Prepares the database as its owner (`ownerUrl`): applies the migrations, installs pg-boss's schema and creates the
 * queues (both DDL), and, when `appRole` is given, grants that role what the app needs and nothing more:
 * SELECT/INSERT/UPDATE/DELETE on the tables of `public` and `pgboss`, the sequences, reading the migration record, and
 * not UPDATE/DELETE on `operator_audit` and `withdrawals` nor UPDATE on `consents` and `subscription_consents` (whose
 * triggers refuse them anyway; the retention purges delete consent records). TRUNCATE, ALTER and ownership are never granted. Idempotent; run at every start-up
 * by the process holding the owner's connection, under the migrations' advisory lock. Throws when a migration fails
 * or the owner cannot grant.
 */
export async function prepareDatabase(ownerUrl: string, appRole?: string): Promise<void> {
  const pool = new Pool({ connectionString: ownerUrl, max: 2 });
  pool.on('error', () => undefined);
  try {
    const db = drizzle(pool, { casing: 'snake_case' });
    await migrateOnce(db, pool);
    const boss = new PgBoss({ connectionString: ownerUrl, max: 2, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await createQueues(boss);
    } finally {
      await boss.stop({ graceful: false, wait: true, close: true });
    }
    if (appRole) await grantAppRole(pool, appRole);
  } finally {
    await pool.end();
  }
}

/** The grants of {@link prepareDatabase}, in one transaction. */
async function grantAppRole(pool: Pool, appRole: string): Promise<void> {
  const role = escapeIdentifier(appRole);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`grant usage on schema public, pgboss, drizzle to ${role}`);
    await client.query(`grant select, insert, update, delete on all tables in schema public, pgboss to ${role}`);
    await client.query(`grant select on all tables in schema drizzle to ${role}`);
    await client.query(`grant usage, select, update on all sequences in schema public, pgboss to ${role}`);
    await client.query(`revoke update, delete, truncate on operator_audit from ${role}`);
    await client.query(`revoke update, truncate on consents from ${role}`);
    await client.query(`revoke update, truncate on subscription_consents from ${role}`);
    await client.query(`revoke update, delete, truncate on withdrawals from ${role}`);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Creates the login role `role` with `password` (no superuser, no database or role creation) unless it exists. Used
 * for the embedded PostgreSQL, where the app process is also the owner (the `postgres` superuser) and runs its pool as
 * this role, the layout of a deployment.
 */
export async function ensureLoginRole(ownerUrl: string, role: string, password: string): Promise<void> {
  const pool = new Pool({ connectionString: ownerUrl, max: 1 });
  try {
    const { rowCount } = await pool.query('select 1 from pg_roles where rolname = $1', [role]);
    if (!rowCount) {
      await pool.query(
        `create role ${escapeIdentifier(role)} login nosuperuser nocreatedb nocreaterole password ${pgLiteral(password)}`,
      );
    }
  } finally {
    await pool.end();
  }
}

function pgLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
