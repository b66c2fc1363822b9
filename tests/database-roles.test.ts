import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateOnce, prepareDatabase } from '@/server/db/prepare';
import { PGBOSS_CRON_QUEUE } from '@/server/jobs/queues';

// The deployment's database roles (docs/deploy.md, "The database roles"): an owner migrates; the app's role owns
// nothing, so it cannot switch off or get around the append-only tables' triggers.

const suffix = randomUUID().slice(0, 8);
const owner = `owner_${suffix}`;
const app = `app_${suffix}`;
const database = `roles_${suffix}`;

function urlAs(user: string, password: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.username = user;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
}
const ownerUrl = urlAs(owner, 'owner-pw');
const appUrl = urlAs(app, 'app-pw');

let admin: pg.Client;
let appPool: pg.Pool;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create role ${owner} login nosuperuser password 'owner-pw'`);
  await admin.query(`create role ${app} login nosuperuser nocreatedb nocreaterole password 'app-pw'`);
  await admin.query(`create database ${database} owner ${owner}`);
  appPool = new pg.Pool({ connectionString: appUrl, max: 4 });
  appPool.on('error', () => undefined);
});

afterAll(async () => {
  await appPool.end();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`drop role if exists ${app}`);
  await admin.query(`drop role if exists ${owner}`);
  await admin.end();
});

describe('the app role on a database its owner prepared', () => {
  it('starts only once the owner has migrated, naming the command', async () => {
    await expect(migrateOnce(drizzle(appPool), appPool)).rejects.toThrow(
      new RegExp(`role \\(${app}\\) may not apply them[\\s\\S]*npm run db:migrate[\\s\\S]*MIGRATION_DATABASE_URL`),
    );
  });

  it('after prepareDatabase (run twice, as instances do) reads and writes, and runs the job queue', async () => {
    await prepareDatabase(ownerUrl, app);
    await prepareDatabase(ownerUrl, app);
    await migrateOnce(drizzle(appPool), appPool);
    await appPool.query(
      "insert into operator_audit (operator_email, action, reason) values ('ops@example.com', 'test', 'roles')",
    );
    const { rows } = await appPool.query('select count(*)::int as n from operator_audit');
    expect(rows[0].n).toBe(1);
    const boss = new PgBoss({ connectionString: appUrl, max: 2, supervise: false, schedule: false });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await boss.createQueue('outbox-deliver');
      const id = await boss.send('outbox-deliver', { id: 'x' });
      const [job] = await boss.fetch<{ id: string }>('outbox-deliver');
      expect(job?.id).toBe(id);
      await boss.complete('outbox-deliver', job.id);
      // The queue through which pg-boss's schedules (the minute jobs) send exists: the app role could not create it.
      expect(await boss.getQueue(PGBOSS_CRON_QUEUE)).toMatchObject({ name: PGBOSS_CRON_QUEUE });
    } finally {
      await boss.stop({ graceful: false, wait: true, close: true });
    }
  });

  it.each([
    ['disabling the audit trigger', 'alter table operator_audit disable trigger all'],
    ['disabling the consent trigger', 'alter table consents disable trigger user'],
    ['skipping every trigger', 'set session_replication_role = replica'],
    ['emptying the consent records', 'truncate consents'],
    ['emptying the audit', 'truncate operator_audit'],
    ['deleting audit rows', 'delete from operator_audit'],
    ['rewriting a consent record', "update consents set decision = 'declined'"],
    ['dropping a table', 'drop table consents'],
    ['creating a table', 'create table public.evil (id int)'],
  ])('refuses %s (insufficient privilege)', async (_what, statement) => {
    await expect(appPool.query(statement)).rejects.toMatchObject({ code: '42501' });
    const { rows } = await appPool.query('select count(*)::int as n from operator_audit');
    expect(rows[0].n).toBe(1);
  });
});
