import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SmtpSink } from './support/smtp-sink';
import { getDb, getDbState } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import { createSmtpProvider } from '@/server/providers/email';
import {
  deliverOutboxMessage,
  DELIVERY_HORIZON_MS,
  dueOutboxIds,
  isLastAttempt,
  LEASE_MS,
  MAX_DELIVERY_ATTEMPTS,
  messageIdOf,
  nextAttemptAfter,
  PROBE_INTERVAL_MS,
  probeWaitingProviders,
  ProviderHealth,
  queueEmail,
  RETRY_SCHEDULE_MS,
  wakeWaiting,
} from '@/server/services/messaging';
import { enqueueOutbox, getBoss, startOutboxWorkers } from '@/server/jobs/boss';
import { isTwilioOutage, outboxSmsProvider } from '@/server/providers/sms';
import { isSmtpOutage } from '@/server/providers/email';
import RestException from 'twilio/lib/base/RestException';

/** The SMTP server most tests send to: it records what it accepts and refuses the next `refuse` messages with 451. */
const main = new SmtpSink();
beforeAll(() => main.start());
afterAll(() => main.stop());

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
    main.received = [];
    main.refuse = 1;
    const db = await getDb();
    const email = providerOf(main);
    const id = await queue('retry@example.com');

    expect(await deliverOutboxMessage(db, id, { email })).toBe('queued');
    let [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, provider: 'smtp' });
    expect(row.lastError).toMatch(/temporary failure/);
    // The first retry comes seconds later (10 s ± 20 %), not minutes.
    const wait = row.nextAttemptAt!.getTime() - Date.now();
    expect(wait).toBeGreaterThan(7_000);
    expect(wait).toBeLessThan(12_500);
    // Not due yet: nothing is sent and no attempt is spent.
    expect(await deliverOutboxMessage(db, id, { email })).toBe('queued');
    expect(main.received).toHaveLength(0);
    expect(await dueOutboxIds(db, new Date(), 100_000)).not.toContain(id);

    later(15_000);
    expect(await dueOutboxIds(db, new Date(), 100_000)).toContain(id);
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null, leaseUntil: null });
    expect(main.received).toHaveLength(1);
    expect(main.received[0].to).toBe('retry@example.com');
    expect(main.received[0].raw).toContain(`Message-ID: ${messageIdOf(id)}`);
    expect(main.received[0].raw).toContain('Kode Anda adalah 123456');
  });

  it('keeps trying for more than 24 hours before marking a message failed', async () => {
    main.received = [];
    main.refuse = MAX_DELIVERY_ATTEMPTS;
    const db = await getDb();
    const email = providerOf(main);
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
    expect(main.received).toHaveLength(0);
    // The shortest schedule (every wait at its -20 % jitter) still spans a day; past the table, it is hourly.
    let shortest = 0;
    for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS; attempt++) {
      shortest += nextAttemptAfter(attempt, new Date(0), () => 0).getTime();
    }
    expect(shortest).toBeGreaterThan(24 * 3600_000);
    expect(RETRY_SCHEDULE_MS.slice(0, 3)).toEqual([10_000, 30_000, 60_000]);
    expect(nextAttemptAfter(30, new Date(0), () => 0.5).getTime()).toBe(3600_000);
  });

  it('attempts spent early (a recovery made the message due while it was still refused) do not fail it before 24 h', async () => {
    main.received = [];
    main.refuse = 1;
    const db = await getDb();
    const email = providerOf(main);
    const id = await queue('early@example.com');
    await db
      .update(outboundMessages)
      .set({ attempts: MAX_DELIVERY_ATTEMPTS + 5 })
      .where(eq(outboundMessages.id, id));
    expect(await deliverOutboxMessage(db, id, { email })).toBe('queued');
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, id));
    expect(row.status).toBe('queued');
    expect(isLastAttempt(row.attempts, row.createdAt, new Date(row.createdAt.getTime() + DELIVERY_HORIZON_MS))).toBe(
      true,
    );
    expect(isLastAttempt(MAX_DELIVERY_ATTEMPTS - 1, row.createdAt, new Date(Date.now() + 48 * 3600_000))).toBe(false);
  });

  it('a hung SMTP server fails the attempt within seconds and holds no database connection meanwhile', async () => {
    const hung = new SmtpSink();
    await hung.start();
    await hung.hang();
    try {
      const db = await getDb();
      const email = providerOf(hung);
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
      await hung.stop();
    }
  });

  it('a crashed delivery is picked up again once its lease runs out, and only then', async () => {
    main.received = [];
    main.refuse = 0;
    const db = await getDb();
    const email = providerOf(main);
    const id = await queue('crash@example.com');
    // A worker claimed it and died before recording the outcome.
    await db
      .update(outboundMessages)
      .set({ status: 'sending', attempts: 1, leaseUntil: new Date(Date.now() + LEASE_MS) })
      .where(eq(outboundMessages.id, id));
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sending');
    expect(main.received).toHaveLength(0);
    later(LEASE_MS + 1000);
    expect(await dueOutboxIds(db, new Date(), 100_000)).toContain(id);
    expect(await deliverOutboxMessage(db, id, { email })).toBe('sent');
    expect(main.received).toHaveLength(1);
  });
});

/** An SMTP provider pointed at `sink`'s port (whether it is up or not). */
function providerOf(sink: SmtpSink) {
  return createSmtpProvider(`smtp://127.0.0.1:${sink.port}`, 'Chamspy <no-reply@example.com>');
}

/** Polls `check` every 100 ms until it returns true; fails after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The outbox rows `ids`. */
async function rowsOf(ids: string[]) {
  const db = await getDb();
  return db.select().from(outboundMessages).where(inArray(outboundMessages.id, ids));
}

/** Queues `n` e-mails to distinct addresses tagged `tag`; returns their ids and addresses. */
async function queueMany(tag: string, n: number) {
  const run = Date.now().toString(36);
  const to = Array.from({ length: n }, (_, i) => `${tag}.${run}.${i}@example.com`);
  return { ids: await Promise.all(to.map((address) => queue(address))), to };
}

/** Moves the rows `ids` to where a long outage leaves them: many attempts spent, the next one hours away. */
async function backOffForHours(ids: string[]) {
  const db = await getDb();
  await db
    .update(outboundMessages)
    .set({ attempts: 20, nextAttemptAt: new Date(Date.now() + 5 * 3600_000) })
    .where(and(inArray(outboundMessages.id, ids), eq(outboundMessages.status, 'queued')));
}

describe('recovery after an SMTP outage', () => {
  it('when the server answers a probe again, all 20 waiting e-mails go out at once, each once, under concurrent runners', async () => {
    const sink = new SmtpSink();
    await sink.start();
    await sink.stop();
    const db = await getDb();
    const email = providerOf(sink);
    const { ids, to } = await queueMany('burst', 20);

    // Two job runners (two processes), each with its own view of the provider; the server refuses connections.
    const woken: string[][] = [];
    const runners = [1, 2].map(
      () =>
        new ProviderHealth(async (channel) => {
          const due = await wakeWaiting(db, channel);
          woken.push(due);
          // Every runner delivers what it woke, three jobs per row at once (as duplicate enqueues would).
          await Promise.all(due.flatMap((id) => [1, 2, 3].map(() => deliverOutboxMessage(db, id, { email }))));
        }),
    );
    const failed = await Promise.all(ids.map((id) => deliverOutboxMessage(db, id, { email, health: runners[0] })));
    expect(failed).toEqual(ids.map(() => 'queued'));
    for (const row of await rowsOf(ids)) expect(row.lastError).toMatch(/ECONNREFUSED/);
    expect(runners[0].state('email')).toBe('down');
    const probes = { email, sms: outboxSmsProvider };
    expect((await probeWaitingProviders(db, runners[1], probes)).email).toBe('down');

    // Hours later: the back-off has reached an hour; nothing is due and the schedule alone would wait.
    await backOffForHours(ids);
    expect((await probeWaitingProviders(db, runners[0], probes)).email).toBe('down');
    const due = await dueOutboxIds(db, new Date(), 100_000);
    expect(ids.filter((id) => due.includes(id))).toEqual([]);
    expect(sink.received).toHaveLength(0);

    // The server is back: both runners' probes see it at the same moment and release everything.
    await sink.start();
    const back = Date.now();
    const outcomes = await Promise.all(runners.map((health) => probeWaitingProviders(db, health, probes)));
    expect(outcomes.map((o) => o.email)).toEqual(['returned', 'returned']);
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'sent'));
    for (const row of rows) expect(row.sentAt!.getTime() - back).toBeLessThan(60_000);
    // Between them the runners released every row (what one had already claimed, the other's UPDATE did not touch).
    expect(woken.flat()).toEqual(expect.arrayContaining(ids));

    // Each once, with the Message-ID of its row.
    const mine = sink.received.filter((m) => to.includes(m.to));
    expect(mine).toHaveLength(20);
    expect(new Set(mine.map((m) => m.to)).size).toBe(20);
    expect(mine.map((m) => m.messageId).sort()).toEqual(ids.map((id) => messageIdOf(id)).sort());
    // Up again: a further probe releases nothing more.
    expect((await probeWaitingProviders(db, runners[0], probes)).email).not.toBe('returned');
    await sink.stop();
  }, 60_000);

  it('a delivery that succeeds while the provider was down releases the others', async () => {
    const sink = new SmtpSink();
    await sink.start();
    await sink.stop();
    const db = await getDb();
    const email = providerOf(sink);
    const { ids, to } = await queueMany('first', 5);
    const released: string[] = [];
    const health = new ProviderHealth(async (channel) => released.push(...(await wakeWaiting(db, channel))));
    for (const id of ids) expect(await deliverOutboxMessage(db, id, { email, health })).toBe('queued');
    expect(health.state('email')).toBe('down');
    await backOffForHours(ids.slice(1));
    await db.update(outboundMessages).set({ nextAttemptAt: new Date() }).where(eq(outboundMessages.id, ids[0]));

    await sink.start();
    // The first row's own retry succeeds: the others, hours away, are due at once.
    expect(await deliverOutboxMessage(db, ids[0], { email, health })).toBe('sent');
    expect(health.state('email')).toBe('up');
    expect(released).toEqual(expect.arrayContaining(ids.slice(1)));
    const due = await dueOutboxIds(db, new Date(), 100_000);
    expect(ids.slice(1).every((id) => due.includes(id))).toBe(true);
    for (const id of ids.slice(1)) await deliverOutboxMessage(db, id, { email, health });
    expect(sink.received.filter((m) => to.includes(m.to))).toHaveLength(5);
    await sink.stop();
  });

  it('a message the answering server refuses is not made due again and again', async () => {
    const sink = new SmtpSink();
    await sink.start();
    sink.refuse = Infinity;
    const db = await getDb();
    const email = providerOf(sink);
    const { ids } = await queueMany('refused', 1);
    const released: string[] = [];
    const health = new ProviderHealth(async (channel) => released.push(...(await wakeWaiting(db, channel))));
    const probes = { email, sms: outboxSmsProvider };
    // A new runner releases what waits once, on the first answer it sees.
    expect(await deliverOutboxMessage(db, ids[0], { email, health })).toBe('queued');
    expect(health.state('email')).toBe('unknown');
    expect((await probeWaitingProviders(db, health, probes)).email).toBe('returned');
    expect(released).toContain(ids[0]);
    // Refused again (451 to the message: the server answers): the provider stays up and the row keeps its schedule.
    expect(await deliverOutboxMessage(db, ids[0], { email, health })).toBe('queued');
    expect(health.state('email')).toBe('up');
    const [before] = await rowsOf(ids);
    expect(before.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    released.length = 0;
    for (let i = 0; i < 3; i++) expect((await probeWaitingProviders(db, health, probes)).email).toBe('up');
    expect(released).toEqual([]);
    const [after] = await rowsOf(ids);
    expect(after.nextAttemptAt).toEqual(before.nextAttemptAt);
    await sink.stop();
  });

  // The job worker (pg-boss, as startWorkers registers it), with the SMTP server `queueSink`; shared by the next tests.
  const queueSink = new SmtpSink();
  let worker: ProviderHealth | undefined;
  async function startWorker() {
    if (!worker) {
      await queueSink.start();
      worker = (await startOutboxWorkers(await getBoss(), await getDb(), { email: providerOf(queueSink) })).health;
    }
    return worker;
  }

  it('through the job queue: after hours of refused connections, the worker delivers all 20 within 60 s of the return', async () => {
    const health = await startWorker();
    await queueSink.stop();
    const db = await getDb();
    const { ids, to } = await queueMany('queue', 20);
    await enqueueOutbox(ids);
    await until(
      'the first attempts to fail',
      async () => (await rowsOf(ids)).every((r) => r.status === 'queued' && r.attempts >= 1),
      30_000,
    );
    expect(health.state('email')).toBe('down');
    await backOffForHours(ids);
    const due = await dueOutboxIds(db, new Date(), 100_000);
    expect(ids.filter((id) => due.includes(id))).toEqual([]);

    await queueSink.start();
    const back = Date.now();
    await until('the recovery', async () => (await rowsOf(ids)).every((r) => r.status === 'sent'), 60_000);
    expect(Date.now() - back).toBeLessThan(PROBE_INTERVAL_MS + 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const mine = queueSink.received.filter((m) => to.includes(m.to));
    expect(mine).toHaveLength(20);
    expect(mine.map((m) => m.messageId).sort()).toEqual(ids.map((id) => messageIdOf(id)).sort());
    expect(health.state('email')).toBe('up');
  }, 90_000);

  it('through the job queue: a message refused once is tried again about 10 s later, not at the minute sweep', async () => {
    // The server answers but refuses the first message once; the provider stays up, so no recovery runs.
    const health = await startWorker();
    await health.answered('email');
    queueSink.refuse = 1;
    const { ids, to } = await queueMany('blip', 1);
    await enqueueOutbox(ids);
    await until('the refused first attempt', async () => (await rowsOf(ids))[0].attempts >= 1, 10_000);
    const failedAt = Date.now();
    await until('the retry', async () => (await rowsOf(ids))[0].status === 'sent', 20_000);
    const [row] = await rowsOf(ids);
    expect(row.attempts).toBe(2);
    // The schedule's 10 s (± 20 %), from the worker's own timer.
    expect(row.sentAt!.getTime() - failedAt).toBeGreaterThan(6_500);
    expect(health.state('email')).toBe('up');
    expect(queueSink.received.filter((m) => to.includes(m.to))).toHaveLength(1);
    await queueSink.stop();
  }, 60_000);

  it('tells an outage (no answer, 421, 5xx, credentials, rate limit) from a refusal of one message', () => {
    const twilio = (statusCode: number, code: number) =>
      new RestException({ statusCode, body: JSON.stringify({ code, message: 'x' }) });
    expect(isTwilioOutage(twilio(400, 21211))).toBe(false); // invalid "To" number: this message only
    expect(isTwilioOutage(twilio(503, 20503))).toBe(true);
    expect(isTwilioOutage(twilio(401, 20003))).toBe(true);
    expect(isTwilioOutage(twilio(429, 20429))).toBe(true);
    expect(isTwilioOutage(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTwilioOutage(new TypeError('bug'))).toBe(false);
    expect(isSmtpOutage(Object.assign(new Error('x'), { code: 'EENVELOPE', responseCode: 550 }))).toBe(false);
    expect(isSmtpOutage(Object.assign(new Error('x'), { code: 'EMESSAGE', responseCode: 451 }))).toBe(false);
    expect(isSmtpOutage(Object.assign(new Error('x'), { code: 'EMESSAGE', responseCode: 421 }))).toBe(true);
    expect(isSmtpOutage(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toBe(true);
    expect(isSmtpOutage(Object.assign(new Error('x'), { code: 'EAUTH', responseCode: 535 }))).toBe(true);
    expect(isSmtpOutage(null)).toBe(false);
  });
});
