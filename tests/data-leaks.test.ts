import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { breachChecks, users } from '@/server/db/schema';
import { buyAccount, call, uniqueEmail } from './support/accounts';
import { FakeHibp, hibpBreach } from './support/fake-hibp';
import { idleInTransaction } from './support/db-activity';

// The data-leak check of the subscriber's own e-mail and the Pwned Passwords check of a new password,
// against a local fake of both HIBP endpoints (settings are read on first use, after this).
const PORT = vi.hoisted(() => {
  const port = 44000 + (process.pid % 1000);
  process.env.HIBP_API_KEY = 'fake-hibp-key-0123456789abcdef';
  process.env.HIBP_API_URL = `http://127.0.0.1:${port}/api/v3`;
  process.env.PWNED_PASSWORDS_URL = `http://127.0.0.1:${port}`;
  return port;
});
const fake = new FakeHibp();

beforeAll(() => fake.start(PORT));
afterAll(() => fake.stop());
beforeEach(() => {
  fake.mode = 'ok';
  fake.requests = [];
});

const leaks = (token: string, lang = 'en', query = '') =>
  call('GET', `/account/dataLeaks${query}`, { headers: { cookie: `token=${token}`, 'accept-language': lang } });

describe('data-leak check', () => {
  it("lists the breaches of the caller's own e-mail, newest first, with what was exposed", async () => {
    const buyer = await buyAccount(uniqueEmail('leaked'));
    fake.accounts.set(buyer.email.toLowerCase(), [
      hibpBreach('Adobe', '2013-10-04', ['Email addresses', 'Password hints', 'Passwords', 'Usernames']),
      hibpBreach('Canva', '2019-05-24', ['Email addresses', 'Names', 'Passwords']),
    ]);
    fake.accounts.set('someone.else@example.com', [hibpBreach('LinkedIn', '2012-05-05', ['Passwords'])]);
    // An address in the query is ignored: only the account's own e-mail is ever checked.
    const res = await leaks(buyer.token, 'en', '?email=someone.else@example.com&account=someone.else@example.com');
    expect(res.status).toBe(200);
    const { obj } = await res.json();
    expect(obj).toMatchObject({ configured: true, email: buyer.email.toLowerCase() });
    expect(obj.breaches).toEqual([
      {
        name: 'Canva',
        title: 'Canva',
        domain: 'canva.example',
        breachDate: '2019-05-24',
        dataClasses: ['Email addresses', 'Names', 'Passwords'],
        isVerified: true,
        isSensitive: false,
      },
      expect.objectContaining({ name: 'Adobe', breachDate: '2013-10-04' }),
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ key: fake.key, userAgent: 'Chamspy account security check' });
    expect(fake.requests[0].path).toBe(
      `/api/v3/breachedaccount/${encodeURIComponent(buyer.email.toLowerCase())}?truncateResponse=false`,
    );
  });

  it('says "no breaches" only when the service answered so, and keeps the answer a day', async () => {
    const buyer = await buyAccount(uniqueEmail('clean'));
    const first = (await (await leaks(buyer.token)).json()).obj;
    expect(first).toMatchObject({ configured: true, breaches: [] });
    expect((await (await leaks(buyer.token)).json()).obj).toEqual(first);
    expect(fake.requests).toHaveLength(1);
    // A day later, it is asked again.
    const db = await getDb();
    await db
      .update(breachChecks)
      .set({ checkedAt: sql`now() - interval '25 hours'` })
      .where(eq(breachChecks.email, buyer.email.toLowerCase()));
    fake.accounts.set(buyer.email.toLowerCase(), [
      hibpBreach('Dropbox', '2012-07-01', ['Email addresses', 'Passwords']),
    ]);
    expect((await (await leaks(buyer.token)).json()).obj.breaches).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('asks the service once for 20 calls at once', async () => {
    const buyer = await buyAccount(uniqueEmail('burst'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => leaks(buyer.token)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(fake.requests).toHaveLength(1);
    // The 21st call within the hour is over the per-account limit.
    expect((await leaks(buyer.token)).status).toBe(429);
  });

  it.each([
    ['down', 'en', 'The breach service cannot be reached right now'],
    ['limited', 'es', 'No podemos contactar ahora con el servicio de filtraciones'],
  ] as const)(
    'answers 503 "try later" when the service is %s, never "no breaches", and caches nothing',
    async (mode, lang, msg) => {
      const buyer = await buyAccount(uniqueEmail(`leak-${mode}`));
      fake.mode = mode;
      const res = await leaks(buyer.token, lang);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.success).toBe(0);
      expect(body.msg).toContain(msg);
      const db = await getDb();
      const [user] = await db.select().from(users).where(eq(users.email, buyer.email.toLowerCase()));
      expect(await db.select().from(breachChecks).where(eq(breachChecks.userId, user.id))).toHaveLength(0);
      fake.mode = 'ok';
      expect((await leaks(buyer.token)).status).toBe(200);
    },
  );

  it('asks the service with no database transaction open while it answers', async () => {
    const buyer = await buyAccount(uniqueEmail('slow'));
    fake.accounts.set(buyer.email.toLowerCase(), [hibpBreach('Slow', '2020-01-02', ['Email addresses'])]);
    let release = () => {};
    fake.hold = new Promise((resolve) => (release = resolve));
    try {
      const answer = leaks(buyer.token);
      await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
      // The service has the request and has not answered: no transaction (nor its advisory lock) waits on it.
      expect(await idleInTransaction()).toBe(0);
      release();
      const res = await answer;
      expect(res.status).toBe(200);
      expect((await res.json()).obj.breaches).toEqual([expect.objectContaining({ name: 'Slow' })]);
    } finally {
      fake.hold = null;
      release();
    }
    // Stored: the next call answers from the day's cache.
    expect((await leaks(buyer.token)).status).toBe(200);
    expect(fake.requests).toHaveLength(1);
  });

  it('needs a session', async () => {
    expect((await call('GET', '/account/dataLeaks')).status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Pwned Passwords when a password is chosen', () => {
  const change = (buyer: { token: string; temporaryPassword: string }, newPassword: string, lang = 'en') =>
    call('PUT', '/admin/user/password', {
      body: { password: buyer.temporaryPassword, newPassword },
      headers: { cookie: `token=${buyer.token}`, 'accept-language': lang },
    });

  it('refuses a breached password, sending only 5 hex characters of its SHA-1', async () => {
    const breached = 'violet tangerine 1987';
    fake.pwned.add(breached);
    const buyer = await buyAccount(uniqueEmail('pwned'));
    const res = await change(buyer, breached, 'id');
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe(
      'Kata sandi ini pernah muncul dalam kebocoran data, jadi penyerang mencobanya lebih dulu. Silakan pilih yang lain.',
    );
    const digest = createHash('sha1').update(breached).digest('hex').toUpperCase();
    expect(fake.requests.map((r) => r.path)).toEqual([`/range/${digest.slice(0, 5)}?mode=sha1`]);
    expect(fake.requests[0].padding).toBe(true);
    expect(JSON.stringify(fake.requests)).not.toContain(digest.slice(5));

    expect((await change(buyer, 'violet tangerine 1988')).status).toBe(200);
  });

  it('falls back to the local common-password list when the service is unreachable', async () => {
    fake.mode = 'down';
    const buyer = await buyAccount(uniqueEmail('pwned-down'));
    const common = await change(buyer, 'password123');
    expect(common.status).toBe(422);
    expect((await common.json()).msg).toBe('This password is too common. Please choose another one.');
    expect((await change(buyer, 'quiet harbour lantern 42')).status).toBe(200);
  });
});
