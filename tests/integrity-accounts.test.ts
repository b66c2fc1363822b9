import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { passwordResetCodes, users } from '@/server/db/schema';
import { account, buyAccount, call, latestEmail, nextIp, signIn, tokenOf, uniqueEmail } from './support/accounts';

// Guesses sent at once are all counted; limits do not reveal accounts nor lock owners out.

async function requestCode(email: string, ip = nextIp()) {
  const res = await call('GET', `/admin/userSession/forgetPassword/${email}`, { ip });
  expect(res.status).toBe(200);
  return /\b(\d{6})\b/.exec((await latestEmail(email)).body)![1];
}

function reset(email: string, code: string, ip = nextIp()) {
  return call('PUT', `/admin/userSession/forgetPassword/${email}`, {
    body: { code, newPassword: 'a brand new passphrase' },
    ip,
  });
}

describe('reset codes under concurrent guesses', () => {
  it('40 wrong guesses at once burn the code: the counter reaches 5 and the right code no longer works', async () => {
    const a = await buyAccount(uniqueEmail('burst'));
    const code = await requestCode(a.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 40 }, () => reset(a.email, wrong)));
    expect(answers.every((r) => r.status === 422)).toBe(true);
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, a.email));
    const [row] = await db
      .select()
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.userId, user.id))
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1);
    expect(row.failedAttempts).toBe(5);
    expect(row.consumedAt).not.toBeNull();
    const right = await reset(a.email, code);
    expect(right.status).toBe(422);
    expect((await right.json()).msg).toBe('The code is incorrect or has expired');
  });

  it('limits reset attempts per IP', async () => {
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 25 }, () => reset(uniqueEmail('ipreset'), '123456', ip)));
    expect(answers.filter((r) => r.status === 429)).toHaveLength(5);
    expect(answers.find((r) => r.status === 429)!.headers.get('retry-after')).toBeTruthy();
  });

  it('limits current-password checks when changing the password, even sent at once', async () => {
    const a = await account('changeburst');
    const cookie = `token=${tokenOf(await signIn(a.email, a.password))}`;
    const change = (password: string) =>
      call('PUT', '/admin/user/password', {
        body: { password, newPassword: 'another good passphrase' },
        headers: { cookie },
      });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`wrong guess ${i}`)));
    expect(answers.filter((r) => r.status === 422)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
    expect((await change(a.password)).status).toBe(429);
  });
});

describe('account enumeration and lock-out', () => {
  it('the 6th reset-code request in an hour answers 429 for registered and unknown addresses alike', async () => {
    const known = (await buyAccount(uniqueEmail('known'))).email;
    const unknown = uniqueEmail('unknown');
    for (const email of [known, unknown]) {
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await call('GET', `/admin/userSession/forgetPassword/${email}`));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    }
  });

  it('failed sign-ins answer 429 alike for unknown and registered addresses', async () => {
    const known = (await account('enum')).email;
    const unknown = uniqueEmail('enum-unknown');
    for (const email of [known, unknown]) {
      const ip = nextIp();
      const statuses = [];
      for (let i = 0; i < 11; i++) statuses.push((await signIn(email, `wrong guess ${i}`, ip)).status);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
    }
  });

  it('a guesser from one IP does not lock the owner out from another', async () => {
    const a = await account('lockout');
    const attacker = nextIp();
    for (let i = 0; i < 12; i++) await signIn(a.email, `wrong guess ${i}`, attacker);
    expect((await signIn(a.email, 'still wrong', attacker)).status).toBe(429);
    expect((await signIn(a.email, a.password, nextIp())).status).toBe(200);
  });

  it('sign-in failures from many IPs still meet a per-account ceiling', async () => {
    const a = await account('ceiling');
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await signIn(a.email, `wrong ${i}`, nextIp())).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(users)
        .where(and(eq(users.email, a.email))),
    ).toHaveLength(1);
  });
});
