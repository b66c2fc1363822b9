import { afterEach, describe, expect, it, vi } from 'vitest';
import { account, buyAccount, call, latestEmail, signIn, tokenOf } from './support/accounts';

afterEach(() => vi.useRealTimers());

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
    expect((await change.json()).msg).toBe('Your password was changed.');
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${token}` } })).status).toBe(200);
    // The payment session was another session: revoked by the change.
    expect((await call('GET', '/spyContent', { headers: { cookie: `token=${bought.token}` } })).status).toBe(401);
  });

  it('the restricted session sets a password without typing the temporary one again; a full session must', async () => {
    const bought = await buyAccount(`temp-choose.${Date.now()}@example.com`);
    const restricted = tokenOf(await signIn(bought.email, bought.temporaryPassword));
    const chosen = await call('PUT', '/admin/user/password', {
      body: { newPassword: 'my own passphrase' },
      headers: { cookie: `token=${restricted}` },
    });
    expect(chosen.status).toBe(200);
    expect((await signIn(bought.email, 'my own passphrase')).status).toBe(200);
    // Now a full session: leaving out the current password is refused and nothing changes.
    const again = await call('PUT', '/admin/user/password', {
      body: { newPassword: 'another passphrase' },
      headers: { cookie: `token=${restricted}` },
    });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ msg: 'Password cannot be empty', field: 'password' });
    expect((await signIn(bought.email, 'my own passphrase')).status).toBe(200);
  });

  it('the session the payment opened chooses the first password without the temporary one, once', async () => {
    const bought = await buyAccount(`temp-paid.${Date.now()}@example.com`);
    const cookie = { cookie: `token=${bought.token}` };
    const me = await (await call('GET', '/admin/userSession/current', { headers: cookie })).json();
    expect(me.obj).toMatchObject({ mustChangePassword: false, choosesFirstPassword: true });
    const chosen = await call('PUT', '/admin/user/password', {
      body: { newPassword: 'my own passphrase' },
      headers: cookie,
    });
    expect(chosen.status).toBe(200);
    expect((await signIn(bought.email, 'my own passphrase')).status).toBe(200);
    expect((await signIn(bought.email, bought.temporaryPassword)).status).toBe(401);
    // From then on the current password is asked, in that session too.
    const after = await (await call('GET', '/admin/userSession/current', { headers: cookie })).json();
    expect(after.obj.choosesFirstPassword).toBe(false);
    const again = await call('PUT', '/admin/user/password', {
      body: { newPassword: 'another passphrase' },
      headers: cookie,
    });
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ field: 'password' });
  });

  it('a session opened by signing in is not the payment’s: it may not skip the current password', async () => {
    const bought = await account(`temp-later.${Date.now()}`);
    const token = tokenOf(await signIn(bought.email, bought.password));
    const me = await (
      await call('GET', '/admin/userSession/current', { headers: { cookie: `token=${token}` } })
    ).json();
    expect(me.obj.choosesFirstPassword).toBe(false);
    const skipped = await call('PUT', '/admin/user/password', {
      body: { newPassword: 'a different passphrase' },
      headers: { cookie: `token=${token}` },
    });
    expect(skipped.status).toBe(422);
  });

  it('stops working after 7 days', async () => {
    const bought = await buyAccount(`tempexp.${Date.now()}@example.com`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 60_000);
    const res = await signIn(bought.email, bought.temporaryPassword);
    expect(res.status).toBe(401);
    expect((await res.json()).msg).toBe(
      'Your temporary password has expired. Ask for a code on the sign-in page to choose your own password.',
    );
  });

  it('recovering access e-mails a code and never replaces the working temporary password', async () => {
    const bought = await buyAccount(`tempnew.${Date.now()}@example.com`);
    const res = await call('PUT', `/admin/userSession/restPassword/${bought.email}`);
    expect(res.status).toBe(200);
    const mail = await latestEmail(bought.email);
    expect(mail.template).toBe('reset-code');
    // Anyone may ask; the temporary password the owner has keeps working.
    expect((await signIn(bought.email, bought.temporaryPassword)).status).toBe(200);
    const unknown = await call('PUT', `/admin/userSession/restPassword/nobody.${Date.now()}@example.com`);
    expect(await unknown.json()).toEqual(await res.clone().json());
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
    ['8 characters', 'abcdefgh', 200, 'Your password was changed.'],
    ['64 characters', 'x'.repeat(63) + 'y', 200, 'Your password was changed.'],
    ['65 characters', 'x'.repeat(64) + 'y', 422, 'Password must be between 8 to 64 characters'],
    ['8 emoji', '🦊🐙🦉🐝🦋🐢🦀🐬', 200, 'Your password was changed.'],
    ['inner spaces', 'blue moon river', 200, 'Your password was changed.'],
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
