import type { E164 } from '@/lib/contracts/phone';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { desc, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { operatorAudit, operators, optOuts, orders, outboundMessages, supportMessages } from '@/server/db/schema';
import { createOperator } from '@/server/services/ops';
import { sha256 } from '@/server/services/tokens';
import { API, app, clientHeaders } from './support/api';
import { buyAccount, call, nextIp, uniqueEmail } from './support/accounts';
import { subscribe, subscriptionById } from './support/billing';

// The operator console's API — sign-in with a password and a TOTP code, each action through the
// buyer's own services, an append-only audit log, and nothing secret in any answer.

const totpFor = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** This file's block of the IPv6 documentation range; a client in a new /64 of it per call (limits count /64s). */
const block = Math.floor(Math.random() * 0xffff).toString(16);
let networks = 0;
const newNetwork = () => `2001:db8:${block}:${(++networks).toString(16)}::1`;

/** Calls the console API with JSON, as the /ops page does. */
function ops(method: string, path: string, cookie?: string, body?: unknown, ip = nextIp()) {
  return app.request(`${API}/ops${path}`, {
    method,
    headers: {
      ...clientHeaders,
      'x-peer-ip': ip,
      ...(cookie ? { cookie } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** A new operator, signed in; `step` offsets the TOTP time so successive sign-ins use later codes. */
async function operator(tag: string) {
  const email = uniqueEmail(`op-${tag}`);
  const created = await createOperator(await getDb(), email);
  const code = totpFor(created.secret).generate();
  const res = await ops('POST', '/session', undefined, { email, password: created.password, code });
  expect(res.status).toBe(200);
  const cookie = /ops_token=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  return { email: email.toLowerCase(), cookie, ...created };
}

async function auditOf(targetId: string) {
  return (await getDb()).select().from(operatorAudit).where(eq(operatorAudit.targetId, targetId));
}

describe('operator console', () => {
  it('creates an operator from the command line, whose printed password and TOTP secret sign in', async () => {
    const email = uniqueEmail('op-cli');
    const run = (address: string) =>
      promisify(execFile)('npx', ['tsx', '--conditions=react-server', 'server/ops/create-operator-cli.ts', address], {
        env: process.env,
        cwd: process.cwd(),
      });
    const { stdout } = await run(email);
    const password = /password: +(\S+)/.exec(stdout)![1];
    const secret = /TOTP secret: +(\S+)/.exec(stdout)![1];
    expect(stdout).toMatch(/otpauth:\/\/totp\//);
    const code = totpFor(secret).generate();
    expect((await ops('POST', '/session', undefined, { email, password, code })).status).toBe(200);
    // A second operator of the same address, or a bad address, exits 2 with a message.
    await expect(run(email)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('already exists') });
    await expect(run('not-an-email')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage') });
  }, 60_000);

  it('signs in only with the password and a fresh TOTP code; a code is never accepted twice', async () => {
    const email = uniqueEmail('op-signin');
    const created = await createOperator(await getDb(), email);
    expect(created.uri).toMatch(/^otpauth:\/\/totp\//);
    const totp = totpFor(created.secret);
    const wrongCode = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');

    expect(
      (await ops('POST', '/session', undefined, { email, password: created.password, code: wrongCode })).status,
    ).toBe(401);
    expect(
      (await ops('POST', '/session', undefined, { email, password: 'wrong password', code: totp.generate() })).status,
    ).toBe(401);
    expect((await ops('POST', '/session', undefined, { email, password: created.password })).status).toBe(422);

    const code = totp.generate();
    const first = await ops('POST', '/session', undefined, { email, password: created.password, code });
    expect(first.status).toBe(200);
    const cookie = /ops_token=[^;]+/.exec(first.headers.get('set-cookie') ?? '')![0];
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(first.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    // The same code again (someone who saw it) is refused.
    expect((await ops('POST', '/session', undefined, { email, password: created.password, code })).status).toBe(401);
    // The next step's code works.
    const later = totp.generate({ timestamp: Date.now() + 30_000 });
    expect((await ops('POST', '/session', undefined, { email, password: created.password, code: later })).status).toBe(
      200,
    );

    const me = await ops('GET', '/session', cookie);
    expect((await me.json()).obj.email).toBe(email.toLowerCase());
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(me.headers.get('x-robots-tag')).toMatch(/noindex/);

    expect((await ops('DELETE', '/session', cookie)).status).toBe(200);
    expect((await ops('GET', '/orders', cookie)).status).toBe(401);
  });

  it('accepts one TOTP code once even when 20 sign-ins send it at the same moment', async () => {
    const email = uniqueEmail('op-race');
    const created = await createOperator(await getDb(), email);
    const code = totpFor(created.secret).generate();
    const statuses = await Promise.all(
      Array.from(
        { length: 20 },
        async () => (await ops('POST', '/session', undefined, { email, password: created.password, code })).status,
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 401 || s === 429)).toBe(true);
  });

  it('answers 401 without an operator session, even with a buyer session, and 403 for a change without website_type', async () => {
    const buyer = await buyAccount(uniqueEmail('op-buyer'));
    for (const path of ['/orders', '/abuse', '/messages', '/support', '/funnel', '/audit']) {
      expect((await ops('GET', path)).status).toBe(401);
      expect((await ops('GET', path, `token=${buyer.token}`)).status).toBe(401);
    }
    const { cookie } = await operator('csrf');
    const res = await app.request(`${API}/ops/opt-outs`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+14155550100', reason: 'test' }),
    });
    expect(res.status).toBe(403);
  });

  it('limits failed sign-ins per operator address and client: a stranger cannot keep the operator out', async () => {
    const email = uniqueEmail('op-limit');
    const created = await createOperator(await getDb(), email);
    const stranger = newNetwork();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const guess = { email, password: `wrong ${i}`, code: '000000' };
      statuses.push((await ops('POST', '/session', undefined, guess, stranger)).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const code = totpFor(created.secret).generate();
    // The stranger's client waits for the window, even with the right password and code…
    expect(
      (await ops('POST', '/session', undefined, { email, password: created.password, code }, stranger)).status,
    ).toBe(429);
    // …the operator, elsewhere, signs in.
    const own = await ops('POST', '/session', undefined, { email, password: created.password, code }, newNetwork());
    expect(own.status).toBe(200);
  });

  it('still meets a per-address ceiling of failures from every client (100 an hour)', async () => {
    const email = uniqueEmail('op-ceiling');
    const created = await createOperator(await getDb(), email);
    const statuses = await Promise.all(
      Array.from(
        { length: 105 },
        async (_, i) =>
          (await ops('POST', '/session', undefined, { email, password: `w${i}`, code: '000000' }, newNetwork())).status,
      ),
    );
    // Spent before each check, so even at once exactly 100 are checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const code = totpFor(created.secret).generate();
    expect(
      (await ops('POST', '/session', undefined, { email, password: created.password, code }, newNetwork())).status,
    ).toBe(429);
  }, 60_000);

  it('writes every failed sign-in to the audit log: who was tried (or a hash), the client, why; never the password', async () => {
    const email = uniqueEmail('op-failaudit');
    const created = await createOperator(await getDb(), email);
    const totp = totpFor(created.secret);
    const wrongCode = String((Number(totp.generate()) + 1) % 1_000_000).padStart(6, '0');
    const ip = newNetwork();
    const unknown = uniqueEmail('op-nobody');
    const tries = [
      { email, password: 'not the password', code: totp.generate() },
      { email, password: created.password, code: wrongCode },
      { email: unknown, password: 'some password', code: '123456' },
    ];
    for (const attempt of tries) expect((await ops('POST', '/session', undefined, attempt, ip)).status).toBe(401);
    const code = totp.generate();
    expect((await ops('POST', '/session', undefined, { email, password: created.password, code }, ip)).status).toBe(
      200,
    );
    // The same code again: a replay.
    expect((await ops('POST', '/session', undefined, { email, password: created.password, code }, ip)).status).toBe(
      401,
    );

    const db = await getDb();
    const failures = await db
      .select()
      .from(operatorAudit)
      .where(
        sql`${operatorAudit.action} = 'sign_in.failed' and ${operatorAudit.detail}->>'ip' like ${`${ip.split('::')[0]}%`}`,
      )
      .orderBy(operatorAudit.id);
    expect(failures.map((f) => [f.operatorId, f.operatorEmail, f.reason])).toEqual([
      [created.id, email.toLowerCase(), 'wrong_password'],
      [created.id, email.toLowerCase(), 'wrong_code'],
      [null, '-', 'unknown_address'],
      [created.id, email.toLowerCase(), 'replayed_code'],
    ]);
    expect(failures[2].detail).toEqual({ ip, addressSha256: sha256(`ops:${unknown.toLowerCase()}`) });
    expect(failures[0].detail).toEqual({ ip });
    const stored = JSON.stringify(failures);
    for (const secretText of ['not the password', created.password, 'some password', wrongCode, code, unknown]) {
      expect(stored).not.toContain(secretText);
    }
    // A disabled operator's right password and code fail, and say so in the log.
    await db.update(operators).set({ disabledAt: new Date() }).where(eq(operators.id, created.id));
    const later = totp.generate({ timestamp: Date.now() + 30_000 });
    expect(
      (await ops('POST', '/session', undefined, { email, password: created.password, code: later }, ip)).status,
    ).toBe(401);
    const [last] = await db
      .select()
      .from(operatorAudit)
      .where(eq(operatorAudit.operatorId, created.id))
      .orderBy(desc(operatorAudit.id))
      .limit(1);
    expect([last.action, last.reason]).toEqual(['sign_in.failed', 'disabled']);
  });

  it('finds orders by e-mail, number, code and reference (any case); refunds through the buyer service and audits who, what and why', async () => {
    const { cookie, email: opEmail } = await operator('refund');
    const buyerEmail = uniqueEmail('op-refund-buyer');
    const bought = await subscribe(buyerEmail);

    for (const q of [
      buyerEmail.toUpperCase(),
      bought.code,
      bought.order.reference,
      bought.order.reference.toLowerCase(),
      bought.order.phoneE164.replace('+', ''),
    ]) {
      const found = await (await ops('GET', `/orders?q=${encodeURIComponent(q)}`, cookie)).json();
      expect(found.obj.orders.map((o: { code: string }) => o.code)).toContain(bought.code);
    }

    expect((await ops('POST', `/orders/${bought.order.id}/refund`, cookie, {})).status).toBe(422);
    const refund = await ops('POST', `/orders/${bought.order.id}/refund`, cookie, {
      reason: 'charged twice, ticket 42',
    });
    expect(refund.status).toBe(200);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.id, bought.order.id));
    expect(order.status).toBe('refunded');
    expect((await subscriptionById(bought.sub.id)).status).toBe('canceled');
    const [entry] = await auditOf(bought.order.id);
    expect(entry).toMatchObject({ action: 'order.refund', operatorEmail: opEmail, reason: 'charged twice, ticket 42' });
    expect(entry.createdAt).toBeInstanceOf(Date);

    // Nothing left to cancel after the refund.
    expect((await ops('POST', `/orders/${bought.order.id}/cancel`, cookie, { reason: 'asked by phone' })).status).toBe(
      409,
    );
    expect(
      (await ops('POST', `/orders/00000000-0000-4000-8000-000000000000/refund`, cookie, { reason: 'nope' })).status,
    ).toBe(404);
  });

  it('cancels a subscription at its period end through the buyer service, with an audit entry', async () => {
    const { cookie } = await operator('cancel');
    const bought = await subscribe(uniqueEmail('op-cancel-buyer'));
    const res = await ops('POST', `/orders/${bought.order.id}/cancel`, cookie, { reason: 'customer e-mailed' });
    expect(res.status).toBe(200);
    const sub = await subscriptionById(bought.sub.id);
    expect(sub.cancelAt).not.toBeNull();
    expect((await auditOf(bought.order.id)).map((e) => e.action)).toEqual(['subscription.cancel']);
  });

  it('adds and removes an opt-out number with a reason; bad numbers and missing reasons are refused', async () => {
    const { cookie } = await operator('optout');
    const phone = `+4474001${String(Math.floor(Math.random() * 90000) + 10000)}` as E164;
    // A bad number gets the API's one answer to a refused number (server/api/phone.ts): 400 with its kind.
    const refused = await ops('POST', '/opt-outs', cookie, { phone: 'not a number', reason: 'x'.repeat(5) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: 0, kind: expect.any(String) });
    expect((await ops('POST', '/opt-outs', cookie, { phone })).status).toBe(422);

    expect((await ops('POST', '/opt-outs', cookie, { phone, reason: 'owner phoned support' })).status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone));
    expect(row).toMatchObject({ reason: 'operator', note: 'owner phoned support' });
    const overview = await (await ops('GET', '/abuse', cookie)).json();
    expect(overview.obj.optOuts.map((o: { phoneE164: string }) => o.phoneE164)).toContain(phone);

    const removed = await ops('DELETE', `/opt-outs/${encodeURIComponent(phone)}`, cookie, {
      reason: 'owner asked back',
    });
    expect(removed.status).toBe(200);
    expect(await db.select().from(optOuts).where(eq(optOuts.phoneE164, phone))).toEqual([]);
    expect((await auditOf(phone)).map((e) => [e.action, e.reason])).toEqual([
      ['opt_out.add', 'owner phoned support'],
      ['opt_out.remove', 'owner asked back'],
    ]);
  });

  it('lists failed messages without their bodies and retries one for a new round of attempts', async () => {
    const { cookie } = await operator('retry');
    const db = await getDb();
    const [failed] = await db
      .insert(outboundMessages)
      .values({
        channel: 'email',
        recipient: uniqueEmail('op-undelivered'),
        template: 'reset-code',
        subject: 'code',
        body: 'Your code is 123456 SECRET-BODY',
        status: 'failed',
        attempts: 8,
        lastError: 'connect ETIMEDOUT',
      })
      .returning();
    const list = await (await ops('GET', '/messages', cookie)).json();
    const shown = list.obj.messages.find((m: { id: string }) => m.id === failed.id);
    expect(shown).toMatchObject({ status: 'failed', attempts: 8, lastError: 'connect ETIMEDOUT' });
    expect(JSON.stringify(list)).not.toContain('SECRET-BODY');

    expect((await ops('POST', `/messages/${failed.id}/retry`, cookie, { reason: 'SMTP back up' })).status).toBe(200);
    const [after] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, failed.id));
    expect(after.status === 'queued' || after.status === 'sent' || after.status === 'sending').toBe(true);
    expect(after.attempts).toBeLessThan(8);
    // A message that is not failed cannot be "retried" again.
    await db.update(outboundMessages).set({ status: 'sent' }).where(eq(outboundMessages.id, failed.id));
    expect((await ops('POST', `/messages/${failed.id}/retry`, cookie, { reason: 'again' })).status).toBe(409);
    expect((await auditOf(failed.id)).map((e) => e.action)).toEqual(['message.retry']);
  });

  it('replies to a support message by e-mail in its language and marks it replied', async () => {
    const { cookie } = await operator('support');
    const sender = uniqueEmail('op-support');
    const sent = await call('POST', '/other/contact', {
      body: { name: 'Ana', email: sender, message: 'No me llegó el SMS', locale: 'es' },
    });
    expect(sent.status).toBe(200);
    const db = await getDb();
    const [message] = await db.select().from(supportMessages).where(eq(supportMessages.email, sender));
    const inbox = await (await ops('GET', '/support', cookie)).json();
    expect(inbox.obj.messages.map((m: { id: string }) => m.id)).toContain(message.id);

    expect((await ops('POST', `/support/${message.id}/reply`, cookie, { reply: '' })).status).toBe(422);
    const res = await ops('POST', `/support/${message.id}/reply`, cookie, { reply: 'Lo hemos reenviado <b>hoy</b>.' });
    expect(res.status).toBe(200);
    const [mail] = await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, sender));
    expect(mail.template).toBe('support-reply');
    expect(mail.subject).toMatch(/respuesta/);
    expect(mail.body).toContain('Lo hemos reenviado <b>hoy</b>.');
    expect(mail.html).toContain('&lt;b&gt;hoy&lt;/b&gt;');
    const [replied] = await db.select().from(supportMessages).where(eq(supportMessages.id, message.id));
    expect(replied.repliedAt).not.toBeNull();
  });

  it('shows the funnel and the audit log, never a secret, and the audit log cannot be changed', async () => {
    const { cookie, email, password, secret } = await operator('audit');
    const buyer = await buyAccount(uniqueEmail('op-secrets'));
    const funnel = await ops('GET', '/funnel?days=7', cookie);
    expect(funnel.status).toBe(200);
    expect((await funnel.json()).obj.days).toBe(7);
    const auditRes = await (await ops('GET', '/audit', cookie)).json();
    expect(
      auditRes.obj.entries.some(
        (e: { operatorEmail: string; action: string }) => e.operatorEmail === email && e.action === 'sign_in',
      ),
    ).toBe(true);

    const everything = (
      await Promise.all(
        ['/orders', `/orders?q=${encodeURIComponent(buyer.email)}`, '/abuse', '/messages', '/support', '/audit'].map(
          async (path) => (await ops('GET', path, cookie)).text(),
        ),
      )
    ).join('\n');
    for (const secretText of [
      password,
      secret,
      buyer.temporaryPassword,
      buyer.token,
      'password_hash',
      'passwordHash',
      'totp',
      'tokenHash',
      'consentCode',
    ]) {
      expect(everything).not.toContain(secretText);
    }

    const db = await getDb();
    await expect(db.execute(sql`update operator_audit set reason = 'edited'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from operator_audit`)).rejects.toThrow();
    await expect(db.execute(sql`truncate operator_audit`)).rejects.toThrow();
  });
});

describe('undelivered e-mails on the account page', () => {
  it("lists only the signed-in user's e-mails that failed or wait for a retry, without their text", async () => {
    const mine = await buyAccount(uniqueEmail('undelivered-mine'));
    const other = await buyAccount(uniqueEmail('undelivered-other'));
    const db = await getDb();
    const next = new Date(Date.now() + 5 * 60_000);
    for (const who of [mine, other]) {
      await db
        .update(outboundMessages)
        .set({ status: 'queued', lastError: 'connect ECONNREFUSED', nextAttemptAt: next, attempts: 2 })
        .where(eq(outboundMessages.recipient, who.email.toLowerCase()));
    }
    const res = await call('GET', '/admin/user/undeliveredEmails', { headers: { cookie: `token=${mine.token}` } });
    expect(res.status).toBe(200);
    const { obj } = await res.json();
    expect(obj).toEqual([
      {
        subject: expect.stringContaining('your account and order'),
        createdAt: expect.any(String),
        status: 'queued',
        nextAttemptAt: next.toISOString(),
      },
    ]);
    expect(JSON.stringify(obj)).not.toContain(mine.temporaryPassword);
    expect((await call('GET', '/admin/user/undeliveredEmails')).status).toBe(401);
  });
});
