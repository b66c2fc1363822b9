import { inArray, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPgBouncer, startPgBouncer } from './support/pgbouncer';
import { getDb, getDbState, type Db } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import type { EmailProvider, OutgoingEmail } from '@/server/providers/email';
import { queueEmail } from '@/server/services/messaging';
import { getBoss, startOutboxWorkers } from '@/server/jobs/boss';
import { OutboxListener, type Announced } from '@/server/jobs/outbox-listener';

// The outbox announces its own messages (drizzle/0031, server/jobs/outbox-listener.ts): a message written in a
// committed transaction is delivered with no enqueue call by anyone, through a lost listener connection, and through a
// transaction pooler that cannot deliver LISTEN (docs/decisions/0005-outbox-with-pg-boss.md).

/** An e-mail provider that records every message it is handed. */
function recorder() {
  const sent: OutgoingEmail[] = [];
  const provider: EmailProvider = {
    name: 'recorder',
    send: async (message) => {
      sent.push(message);
      return null;
    },
    probe: async () => undefined,
  };
  return { sent, provider };
}

/** Writes one e-mail to `to` in a transaction of its own (committed); returns its id. */
async function write(to: string): Promise<string> {
  const db = await getDb();
  return db.transaction((tx) =>
    queueEmail(tx, { to, template: 'reset-code', locale: 'en', params: { code: '123456' } }),
  );
}

/** Polls `check` every 50 ms until it returns true; fails after `ms`. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const run = Date.now().toString(36);

describe('the outbox announces what to deliver', () => {
  const mail = recorder();
  let started: Awaited<ReturnType<typeof startOutboxWorkers>> | null = null;
  const worker = async () =>
    (started ??= await startOutboxWorkers(await getBoss(), await getDb(), { email: mail.provider }));
  const sentTo = (address: string) => mail.sent.filter((m) => m.to === address).length;

  it('a committed message is delivered with no enqueue call, and a rolled-back one never', async () => {
    await worker();
    const db = await getDb();
    const address = `announced.${run}@example.com`;
    const id = await write(address);
    await until('the announced message to be sent', () => sentTo(address) === 1);
    // Recorded once the provider has it.
    await until('its row to say so', async () => {
      const [row] = await db
        .select()
        .from(outboundMessages)
        .where(inArray(outboundMessages.id, [id]));
      return row.status === 'sent';
    });

    const dropped = `rolled-back.${run}@example.com`;
    await expect(
      db.transaction(async (tx) => {
        await queueEmail(tx, { to: dropped, template: 'reset-code', locale: 'en', params: { code: '1' } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A later message is delivered; the rolled-back one was never announced nor stored.
    const after = `after-rollback.${run}@example.com`;
    await write(after);
    await until('the next message to be sent', () => sentTo(after) === 1);
    expect(sentTo(dropped)).toBe(0);
  });

  it('50 messages committed at once are each delivered exactly once', async () => {
    await worker();
    const addresses = Array.from({ length: 50 }, (_, i) => `burst.${run}.${i}@example.com`);
    const ids = await Promise.all(addresses.map((a) => write(a)));
    await until('all 50 to be sent', () => addresses.every((a) => sentTo(a) >= 1));
    // A moment for any second delivery to show.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(addresses.map(sentTo)).toEqual(addresses.map(() => 1));
    const db = await getDb();
    await until('every row to be recorded as sent', async () => {
      const rows = await db.select().from(outboundMessages).where(inArray(outboundMessages.id, ids));
      return rows.every((r) => r.status === 'sent');
    });
    const rows = await db.select().from(outboundMessages).where(inArray(outboundMessages.id, ids));
    expect(rows.map((r) => r.attempts)).toEqual(ids.map(() => 1));
  });

  it('what is written while the listener is disconnected is delivered once it is back', async () => {
    const { listener } = await worker();
    const db = await getDb();
    await db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'outbox-listener'`,
    );
    await until('the listener to notice', () => listener.hearing === 'connecting', 5_000);
    const address = `while-away.${run}@example.com`;
    await write(address);
    await until('the message written meanwhile to be sent', () => sentTo(address) === 1);
    await until('the listener to hear again', () => listener.hearing === 'hearing');
  });
});

describe.skipIf(!hasPgBouncer)('the outbox listener behind a transaction pooler', () => {
  // Undone last first: the pool and listeners before the pooler they talk through.
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  beforeAll(async () => {
    bouncer = await startPgBouncer((await getDbState()).url);
    stops.push(bouncer.stop);
  });

  it('listening through PgBouncer it finds itself deaf and reads the waiting messages every second instead', async () => {
    const handed: string[] = [];
    const db = await getDb();
    const waiting = async () => {
      const rows = await db
        .select({ id: outboundMessages.id })
        .from(outboundMessages)
        .where(inArray(outboundMessages.recipient, [`pooled.${run}@example.com`]));
      return rows.map((r) => ({ id: r.id, channel: 'email' }));
    };
    const deaf = new OutboxListener({
      url: bouncer.url,
      db,
      deliver: async (messages) => void handed.push(...messages.map((m) => m.id)),
      waiting,
    });
    stops.push(() => deaf.close());
    await deaf.start();
    expect(deaf.hearing).toBe('deaf');
    const id = await write(`pooled.${run}@example.com`);
    await until('the deaf listener to find the message', () => handed.includes(id), 5_000);
  });

  it('listening on a direct connection it hears what is committed through PgBouncer', async () => {
    const { url: direct } = await getDbState();
    const pool = new pg.Pool({ connectionString: bouncer.url, max: 2 });
    pool.on('error', () => {});
    stops.push(() => pool.end());
    // The app's pool behind the pooler, as DATABASE_URL is when DATABASE_SESSION_URL is set.
    const pooled = drizzle(pool) as unknown as Db;
    const handed: Announced[] = [];
    const listener = new OutboxListener({
      url: direct,
      db: pooled,
      deliver: async (messages) => void handed.push(...messages),
      waiting: async () => [],
    });
    stops.push(() => listener.close());
    await listener.start();
    expect(listener.hearing).toBe('hearing');
    const id = await pooled.transaction((tx) =>
      queueEmail(tx, { to: `direct.${run}@example.com`, template: 'reset-code', locale: 'en', params: { code: '1' } }),
    );
    // Announced with its channel, so that an SMS can be given priority over e-mails.
    await until('the announcement', () => handed.some((m) => m.id === id), 5_000);
    expect(handed.find((m) => m.id === id)).toEqual({ id, channel: 'email' });
  });
});
