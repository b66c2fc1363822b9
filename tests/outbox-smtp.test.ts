import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb, getDbState } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import { createSmtpProvider } from '@/server/providers/email';
import {
  LEASE_MS,
  MAX_DELIVERY_ATTEMPTS,
  RETRY_SCHEDULE_MS,
  deliverOutboxMessage,
  dueOutboxIds,
  messageIdOf,
  nextAttemptAfter,
} from '@/server/services/outbox';
import { queueEmail } from '@/server/services/outbox-queue';

/** An in-process SMTP server that refuses the first `failFirst` messages, then accepts and records them. */
let received: { to: string; raw: string }[] = [];
let failuresLeft = 0;
let server: SMTPServer;
let port = 0;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          const error = Object.assign(new Error('451 temporary failure'), { responseCode: 451 });
          return callback(error);
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function queue(to: string) {
  const db = await getDb();
  return db.transaction((tx) =>
    queueEmail(tx, { to, template: 'reset-code', locale: 'id', params: { code: '123456' } }),
  );
}

afterEach(() => vi.useRealTimers());

/** Moves the clock (JavaScript's Date only) `ms` ahead of now. */
function later(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

describe('outbox delivery over SMTP', () => {
  it('retries after an SMTP failure on the schedule, and sends exactly once with a stable Message-ID', async () => {
    received = [];
    failuresLeft = 1;
    const db = await getDb();
    const email = createSmtpProvider(`smtp://127.0.0.1:${port}`, 'Chamspy <no-reply@example.com>');
    const id = await queue('retry@example.com');

    expect(await deliverOutboxMessage(db, id, { email })).toBe('queued');
    let [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, provider: 'smtp' });
    expect(row.lastError).toMatch(/temporary failure/);
    const wait = row.nextAttemptAt!.getTime() - Date.now();
    expect(wait).toBeGreaterThan(40_000);
    expect(wait).toBeLessThan(80_000);
    // Not due yet: nothing is sent and no attempt is spent.
    expect(await deliverOutboxMessage(db, id, { email })).toBe('queued');
    expect(received).toHaveLength(0);
    expect(await dueOutboxIds(db, new Date(), 100_000)).not.toContain(id);

    later(90_000);
    expect(await dueOutboxIds(db, new Date(), 100_000)).toContain(id);
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null, leaseUntil: null });
    expect(received).toHaveLength(1);
    expect(received[0].to).toBe('retry@example.com');
    expect(received[0].raw).toContain(`Message-ID: ${messageIdOf(id)}`);
    expect(received[0].raw).toContain('Kode Anda adalah 123456');
  });

  it('keeps trying for more than 24 hours before marking a message failed (issue 16 §6)', async () => {
    received = [];
    failuresLeft = MAX_DELIVERY_ATTEMPTS;
    const db = await getDb();
    const email = createSmtpProvider(`smtp://127.0.0.1:${port}`, 'x@example.com');
    const id = await queue('doomed@example.com');
    const start = Date.now();
    let status: string | null = null;
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      status = await deliverOutboxMessage(db, id, { email });
      const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
      if (row.nextAttemptAt) later(row.nextAttemptAt.getTime() - Date.now() + 1000);
    }
    expect(status).toBe('failed');
    expect(Date.now() - start).toBeGreaterThan(24 * 3600_000);
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS });
    expect(received).toHaveLength(0);
    // The shortest schedule (every wait at its -20 % jitter) still spans a day.
    const shortest = RETRY_SCHEDULE_MS.reduce(
      (sum, _ms, i) => sum + nextAttemptAfter(i + 1, new Date(0), () => 0).getTime(),
      0,
    );
    expect(shortest).toBeGreaterThan(24 * 3600_000);
  });

  it('a hung SMTP server fails the attempt within seconds and holds no database connection meanwhile', async () => {
    const hung = net.createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => hung.once('listening', resolve));
    try {
      const db = await getDb();
      const email = createSmtpProvider(`smtp://127.0.0.1:${(hung.address() as AddressInfo).port}`, 'x@example.com');
      const id = await queue('hung@example.com');
      const started = Date.now();
      const delivery = deliverOutboxMessage(db, id, { email });
      // While the provider call hangs, the row is leased and the pool serves other queries at once.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const probe = Date.now();
      const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
      expect(Date.now() - probe).toBeLessThan(500);
      expect(row.status).toBe('sending');
      expect((await getDbState()).pool.totalCount - (await getDbState()).pool.idleCount).toBeLessThanOrEqual(1);
      expect(await delivery).toBe('queued');
      expect(Date.now() - started).toBeLessThan(12_000);
    } finally {
      hung.close();
    }
  });

  it('a crashed delivery is picked up again once its lease runs out, and only then', async () => {
    received = [];
    failuresLeft = 0;
    const db = await getDb();
    const email = createSmtpProvider(`smtp://127.0.0.1:${port}`, 'x@example.com');
    const id = await queue('crash@example.com');
    // A worker claimed it and died before recording the outcome.
    await db
      .update(outboundMessages)
      .set({ status: 'sending', attempts: 1, leaseUntil: new Date(Date.now() + LEASE_MS) })
      .where(eq(outboundMessages.id, id));
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sending');
    expect(received).toHaveLength(0);
    later(LEASE_MS + 1000);
    expect(await dueOutboxIds(db, new Date(), 100_000)).toContain(id);
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    expect(received).toHaveLength(1);
  });
});
