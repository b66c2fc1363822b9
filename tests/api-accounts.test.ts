import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { outboundMessages, users } from '@/server/db/schema';
import { queueEmail } from '@/server/services/outbox-queue';
import { buyAccount, call, latestEmail, nextIp, signIn, tokenOf } from './support/accounts';

afterEach(() => vi.useRealTimers());

/** Buys an account and replaces its temporary password with `password` (a full account). */
async function account(tag: string, password = 'correct horse battery') {
  const bought = await buyAccount(`${tag}.${Date.now()}@example.com`);
  const res = await call('PUT', '/admin/user/password', {
    body: { password: bought.temporaryPassword, newPassword: password },
    headers: { cookie: `token=${bought.token}` },
  });
  expect(res.status).toBe(200);
  return { ...bought, password };
}

describe('sign-in and sessions', () => {
  it('signs in, sets the cookies and the token header; wrong and unknown answer alike', async () => {
    const a = await account('login');
    const ok = await signIn(a.email, a.password);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.obj).toMatchObject({ email: a.email, paymentCount: 1, mustChangePassword: false });
    expect(ok.headers.get('_chamspy_token')).toBe(tokenOf(ok));
    expect(ok.headers.get('set-cookie')).toMatch(/token=[^;]+;.*HttpOnly/);
    expect(decodeURIComponent(ok.headers.get('set-cookie')!)).toContain(
      `userInfo={"email":"${a.email}","paymentCount":1}`,
    );

    const wrong = await signIn(a.email, 'not the password');
    const unknown = await signIn(`nobody.${Date.now()}@example.com`, 'whatever123');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses a sign-in without website_type (403)', async () => {
    const res = await call('POST', '/admin/userSession', {
      body: { email: 'a@b.co', password: 'x' },
      headers: { website_type: '' },
    });
    expect(res.status).toBe(403);
  });

  it('signs out: the session is revoked and answers 401 code 20012 afterwards', async () => {
    const a = await account('logout');
    const token = tokenOf(await signIn(a.email, a.password));
    const out = await call('DELETE', '/admin/userSession', { headers: { cookie: `token=${token}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/token=;/);
    const after = await call('GET', '/admin/userSession/current', { headers: { cookie: `token=${token}` } });
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe(20012);
  });

  it('answers 401 when the cookie and the header name different users', async () => {
    const a = await account('mixa');
    const b = await account('mixb');
    const res = await call('GET', '/spyContent', { headers: { cookie: `token=${a.token}`, _chamspy_token: b.token } });
    expect(res.status).toBe(401);
    const same = await call('GET', '/spyContent', { headers: { cookie: `token=${a.token}`, _chamspy_token: a.token } });
    expect(same.status).toBe(200);
  });

  it("answers 404 for another user's id", async () => {
    const a = await account('ida');
    const b = await account('idb');
    const mine = await (
      await call('GET', '/admin/userSession/current', { headers: { cookie: `token=${a.token}` } })
    ).json();
    const theirs = await (
      await call('GET', '/admin/userSession/current', { headers: { cookie: `token=${b.token}` } })
    ).json();
    expect(
      (await call('GET', `/admin/userSession/${mine.obj.id}`, { headers: { cookie: `token=${a.token}` } })).status,
    ).toBe(200);
    expect(
      (await call('GET', `/admin/userSession/${theirs.obj.id}`, { headers: { cookie: `token=${a.token}` } })).status,
    ).toBe(404);
  });
});

describe('temporary passwords', () => {
  it('a temporary password opens a restricted session that may only change the password', async () => {
    const bought = await buyAccount(`temp.${Date.now()}@example.com`);
    const res = await signIn(bought.email, bought.temporaryPassword);
    expect((await res.json()).obj.mustChangePassword).toBe(true);
    const token = tokenOf(res);
    const list = await call('GET', '/spyContent', { headers: { cookie: `token=${token}` } });
    expect(list.status).toBe(403);
    expect((await list.json()).msg).toBe('Please change your temporary password first');
    const change = await call('PUT', '/admin/user/password', {
      body: { password: bought.temporaryPassword, newPassword: 'my own passphrase' },
      headers: { cookie: `token=${token}` },
    });
    expect(change.status).toBe(200);
    expect((await change.json()).msg).toBe('Successfully modified');
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${token}` } })).status).toBe(200);
    // The payment session was another session: revoked by the change.
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${bought.token}` } })).status).toBe(401);
  });

  it('stops working after 7 days', async () => {
    const bought = await buyAccount(`tempexp.${Date.now()}@example.com`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 60_000);
    const res = await signIn(bought.email, bought.temporaryPassword);
    expect(res.status).toBe(401);
    expect((await res.json()).msg).toBe('Your temporary password has expired. Ask for a new one on the sign-in page.');
  });

  it('a fresh temporary password is sent only to accounts that still have one', async () => {
    const bought = await buyAccount(`tempnew.${Date.now()}@example.com`);
    const res = await call('PUT', `/admin/userSession/restPassword/${bought.email}`);
    expect(res.status).toBe(200);
    const mail = await latestEmail(bought.email);
    expect(mail.template).toBe('temporary-password');
    const fresh = /temporary password is (\S+)\./.exec(mail.body)![1];
    expect((await signIn(bought.email, fresh)).status).toBe(200);
    expect((await signIn(bought.email, bought.temporaryPassword)).status).toBe(401);

    const full = await account('tempfull');
    const before = await latestEmail(full.email);
    const again = await call('PUT', `/admin/userSession/restPassword/${full.email}`);
    expect((await again.json()).msg).toBe((await res.clone().json()).msg);
    expect((await latestEmail(full.email)).id).toBe(before.id);
    expect((await signIn(full.email, full.password)).status).toBe(200);
  });
});

describe('password policy', () => {
  const change = async (newPassword: string) => {
    const a = await account(`policy${Math.random().toString(36).slice(2, 8)}`);
    return call('PUT', '/admin/user/password', {
      body: { password: a.password, newPassword },
      headers: { cookie: `token=${tokenOf(await signIn(a.email, a.password))}` },
    });
  };

  it.each([
    ['7 characters', 'abcdefg', 422, 'Password must be between 8 to 64 characters'],
    ['8 characters', 'abcdefgh', 200, 'Successfully modified'],
    ['64 characters', 'x'.repeat(63) + 'y', 200, 'Successfully modified'],
    ['65 characters', 'x'.repeat(64) + 'y', 422, 'Password must be between 8 to 64 characters'],
    ['8 emoji', '🦊🐙🦉🐝🦋🐢🦀🐬', 200, 'Successfully modified'],
    ['inner spaces', 'blue moon river', 200, 'Successfully modified'],
    ['a leading space', ' leading-space', 422, 'Password without spaces at the start or the end'],
    ['a common password', 'Password1', 422, 'This password is too common. Please choose another one.'],
  ])('%s → %s', async (_label, password, status, msg) => {
    const res = await change(password);
    expect(res.status).toBe(status);
    expect((await res.json()).msg).toBe(msg);
  });

  it('needs the current password', async () => {
    const a = await account('current');
    const res = await call('PUT', '/admin/user/password', {
      body: { password: 'not it at all', newPassword: 'another fine one' },
      headers: { cookie: `token=${a.token}` },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('The current password is incorrect');
  });

  it('reads the whole password: an 80-byte password sharing its first 72 bytes with the real one is refused', async () => {
    // 44 characters (within the policy), 80 bytes: 36 two-byte 'é' then 8 ASCII letters.
    const real = 'é'.repeat(36) + 'bbbbbbbb';
    const a = await account('long', real);
    expect(Buffer.byteLength(real)).toBe(80);
    expect((await signIn(a.email, 'é'.repeat(36) + 'cccccccc')).status).toBe(401);
    expect((await signIn(a.email, real)).status).toBe(200);
  });
});

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
    expect((await ok.json()).msg).toBe('Successfully modified');
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

  it('limits failed sign-ins per account', async () => {
    const a = await account('brute');
    let res: Response | undefined;
    for (let i = 0; i < 11; i++) res = await signIn(a.email, `wrong guess ${i}`);
    expect(res!.status).toBe(429);
    expect(res!.headers.get('retry-after')).toBeTruthy();
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
