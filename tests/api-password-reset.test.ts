import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { outboundMessages, users } from '@/server/db/schema';
import { queueEmail } from '@/server/services/messaging';
import { account, buyAccount, call, latestEmail, nextIp, signIn, tokenOf } from './support/accounts';

afterEach(() => vi.useRealTimers());

describe('reset codes', () => {
  const codeOf = async (email: string) => /code is (\d{6})/.exec((await latestEmail(email)).body)![1];
  const reset = (email: string, code: string, newPassword = 'a brand new secret') =>
    call('PUT', `/admin/userSession/forgetPassword/${email}`, { body: { code, newPassword } });

  it('answers the same for a known and an unknown e-mail', async () => {
    const a = await account('forgot');
    const known = await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const unknown = await call('GET', `/admin/userSession/forgetPassword/nobody.${Date.now()}@example.com`);
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    expect((await latestEmail(a.email)).template).toBe('reset-code');
  });

  it('resets once, revokes every session, and e-mails a notice', async () => {
    const a = await account('reset');
    const session = tokenOf(await signIn(a.email, a.password));
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const code = await codeOf(a.email);
    const ok = await reset(a.email, code);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.msg).toBe('Your password was reset, and you are signed in with it.');
    // The reset signed the person in: a new session, with the user as sign-in answers it.
    expect(body.obj).toMatchObject({ email: a.email, mustChangePassword: false });
    const signedIn = tokenOf(ok);
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${signedIn}` } })).status).toBe(200);
    expect((await latestEmail(a.email)).template).toBe('password-changed');
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${session}` } })).status).toBe(401);
    expect((await signIn(a.email, 'a brand new secret')).status).toBe(200);
    const twice = await reset(a.email, code, 'yet another secret');
    expect(twice.status).toBe(422);
    expect((await twice.json()).msg).toBe('The code is incorrect or has expired');
  });

  it('a new code voids the old one', async () => {
    const a = await account('void');
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const first = await codeOf(a.email);
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const second = await codeOf(a.email);
    if (first !== second) expect((await reset(a.email, first)).status).toBe(422);
    expect((await reset(a.email, second)).status).toBe(200);
  });

  it('expires after 15 minutes', async () => {
    const a = await account('expiry');
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const code = await codeOf(a.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000);
    expect((await reset(a.email, code)).status).toBe(422);
  });

  it('the 5th wrong guess burns the code', async () => {
    const a = await account('burn');
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    const code = await codeOf(a.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await reset(a.email, wrong)).status).toBe(422);
    expect((await reset(a.email, code)).status).toBe(422);
  });

  it("a code of user A cannot reset user B's password", async () => {
    const a = await account('codea');
    const b = await account('codeb');
    await call('GET', `/admin/userSession/forgetPassword/${a.email}`);
    await call('GET', `/admin/userSession/forgetPassword/${b.email}`);
    const codeA = await codeOf(a.email);
    const codeB = await codeOf(b.email);
    if (codeA !== codeB) expect((await reset(b.email, codeA)).status).toBe(422);
    expect((await signIn(b.email, b.password)).status).toBe(200);
  });

  it('rejects a malformed code with SPEC messages', async () => {
    const res = await call('PUT', '/admin/userSession/forgetPassword/x@example.com', {
      body: { code: '12a456', newPassword: 'whatever it is' },
      headers: { 'accept-language': 'es' },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('Debe ser un número');
  });
});

describe('rate limits and e-mail checks', () => {
  it('checkEmail says registered or free, then 429 with Retry-After past the per-IP limit', async () => {
    const a = await account('check');
    const ip = nextIp();
    const yes = await call('GET', `/portal/user/checkEmail/${a.email}`, { ip });
    expect(await yes.json()).toMatchObject({
      msg: 'The email address you entered is already registered!',
      obj: { registered: true },
    });
    const no = await call('GET', `/portal/user/checkEmail/free.${Date.now()}@example.com`, { ip });
    expect((await no.json()).obj.registered).toBe(false);
    let last: Response = no;
    for (let i = 0; i < 19; i++)
      last = await call('GET', `/portal/user/checkEmail/x${i}@example.com`, {
        ip,
        headers: { 'accept-language': 'id' },
      });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await last.json()).msg).toMatch(/^Terlalu banyak percobaan, silakan coba lagi dalam \d+ detik$/);
  });
});

describe('the e-mail outbox', () => {
  it('writes the row in the transaction of the change: a rollback leaves no e-mail', async () => {
    const db = await getDb();
    const to = `rollback.${Date.now()}@example.com`;
    await expect(
      db.transaction(async (tx) => {
        await queueEmail(tx, { to, template: 'reset-code', locale: 'en', params: { code: '123456' } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, to))).toHaveLength(0);
  });

  it('renders templates in the buyer language with escaped HTML and no secret in the payload', async () => {
    const db = await getDb();
    const to = `render.${Date.now()}@example.com`;
    await db.transaction((tx) =>
      queueEmail(tx, {
        to,
        template: 'temporary-password',
        locale: 'es',
        params: { password: '<b>x</b>', link: 'https://x.test/login/' },
      }),
    );
    const row = await latestEmail(to);
    expect(row.subject).toBe('Chamspy: tu nueva contraseña temporal');
    expect(row.body).toContain('Tu nueva contraseña temporal es <b>x</b>.');
    expect(row.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(row.html).toContain('<a href="https://x.test/login/">');
    expect(row.payload).toEqual({ link: 'https://x.test/login/' });
  });

  it('stores users with a normalized e-mail', async () => {
    const bought = await buyAccount(`Mixed.Case.${Date.now()}@Example.com`);
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, bought.email.toLowerCase()))).toHaveLength(1);
  });
});
