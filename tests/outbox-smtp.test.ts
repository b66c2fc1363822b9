import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import { createSmtpProvider } from '@/server/providers/email';
import { MAX_DELIVERY_ATTEMPTS, deliverOutboxMessage } from '@/server/services/outbox';
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

describe('outbox delivery over SMTP', () => {
  it('retries after an SMTP failure and sends exactly once', async () => {
    received = [];
    failuresLeft = 1;
    const db = await getDb();
    const email = createSmtpProvider(`smtp://127.0.0.1:${port}`, 'Chamspy <no-reply@example.com>');
    const id = await queue('retry@example.com');

    await expect(deliverOutboxMessage(db, id, { email })).rejects.toThrow(/temporary failure/);
    let [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, provider: 'smtp' });
    expect(row.lastError).toMatch(/temporary failure/);
    expect(received).toHaveLength(0);

    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(row.providerMessageId).toBeTruthy();
    expect(received).toHaveLength(1);
    expect(received[0].to).toBe('retry@example.com');
    expect(received[0].raw).toContain('Kode Anda adalah 123456');
  });

  it('marks a message failed after the last allowed attempt', async () => {
    received = [];
    failuresLeft = MAX_DELIVERY_ATTEMPTS;
    const db = await getDb();
    const email = createSmtpProvider(`smtp://127.0.0.1:${port}`, 'x@example.com');
    const id = await queue('doomed@example.com');
    for (let i = 1; i < MAX_DELIVERY_ATTEMPTS; i++)
      await expect(deliverOutboxMessage(db, id, { email })).rejects.toThrow();
    expect(await deliverOutboxMessage(db, id, { email })).toBe('failed');
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_DELIVERY_ATTEMPTS });
    expect(received).toHaveLength(0);
  });
});
