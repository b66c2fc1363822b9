import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { usernameCheckResults, usernameChecks } from '@/server/db/schema';
import { sha256 } from '@/server/services/tokens';
import { isBlockedAddress } from '@/server/services/username-fetch';
import { checkSite, decide, pruneLookups, runUsernameCheck } from '@/server/services/username-lookup';
import { loadSiteList, sitesToCheck, type WmnSite } from '@/server/services/username-sites';
import { usernameProblem } from '@/lib/validation/username';
import { call } from './support/accounts';
import { EXISTING, FakeSites, fakeSiteList } from './support/fake-sites';

// Issue 15 §2: the reverse username lookup against a local fake of a few sites, one per WhatsMyName detection rule
// and per hazard (redirects, a redirect into the private network, a redirect loop, a slow site). The data set's own
// `known` accounts are never fetched: no test leaves the machine.
const PORT = vi.hoisted(() => {
  const port = 45000 + (process.pid % 1000);
  const file = `${process.env.TMPDIR ?? '/tmp'}/wmn-test-${process.pid}.json`;
  process.env.USERNAME_SITES_FILE = file;
  process.env.USERNAME_LOOKUP_ALLOW_LOOPBACK = 'true';
  process.env.USERNAME_LOOKUP_TIMEOUT_MS = '800';
  process.env.USERNAME_LOOKUP_CONCURRENCY = '3';
  process.env.USERNAME_LOOKUPS_PER_IP_PER_HOUR = '10';
  return port;
});
const fake = new FakeSites();
const dataSet = fakeSiteList(`http://127.0.0.1:${PORT}`);
writeFileSync(process.env.USERNAME_SITES_FILE!, JSON.stringify(dataSet));
const byName = (name: string) => dataSet.sites.find((s) => s.name === name) as unknown as WmnSite;

beforeAll(() => fake.start(PORT));
afterAll(() => fake.stop());
beforeEach(() => {
  fake.paths = [];
  fake.maxInFlight = 0;
  fake.slowMs = 3000;
});

describe('the detection rules of the data set', () => {
  const site = { e_code: 200, e_string: 'profile-card', m_code: 404, m_string: 'Not Found' };
  it.each([
    [200, '<div class="profile-card">', 'found'],
    [200, '<div>nothing</div>', 'unknown'],
    [404, 'Not Found', 'not_found'],
    [404, 'Gone', 'unknown'],
    [500, 'profile-card', 'unknown'],
  ] as const)('status %i with %j → %s', (status, body, outcome) => {
    expect(decide(site, status, body)).toBe(outcome);
  });

  it('an empty m_string matches any body of the m_code status', () => {
    expect(decide({ ...site, m_code: 302, m_string: '' }, 302, '')).toBe('not_found');
  });
});

describe('addresses the lookup may not reach', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'not-an-ip',
  ])('%s is blocked', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('the tests-only loopback setting lets loopback through and nothing else', () => {
    expect(isBlockedAddress('127.0.0.1', true)).toBe(false);
    expect(isBlockedAddress('::1', true)).toBe(false);
    for (const ip of ['10.0.0.1', '169.254.169.254', 'fc00::1', '192.168.0.1'])
      expect(isBlockedAddress(ip, true)).toBe(true);
  });
});

describe('one site', () => {
  const options = { timeoutMs: 800, allowLoopback: true };
  it.each([
    ['Codes', 'found', 'not_found'],
    ['Strings', 'found', 'not_found'],
    ['Redirects', 'found', 'not_found'],
    ['Moved', 'found', 'not_found'],
    ['Api', 'found', 'not_found'],
    ['Private', 'unknown', 'unknown'],
    ['Loop', 'unknown', 'unknown'],
    ['Broken', 'unknown', 'unknown'],
  ])('%s: an existing account is %s, a missing one %s', async (name, existing, missing) => {
    expect(await checkSite(byName(name), EXISTING, options)).toBe(existing);
    expect(await checkSite(byName(name), 'nobody', options)).toBe(missing);
  });

  it('never follows a redirect into the private network', async () => {
    await checkSite(byName('Private'), EXISTING, options);
    expect(fake.paths).toEqual([`/to-private/${EXISTING}`]);
  });

  it('gives up on a redirect loop after 3 hops', async () => {
    await checkSite(byName('Loop'), EXISTING, options);
    expect(fake.paths).toHaveLength(4);
  });

  it('counts a site slower than the time-out as unknown, within the time-out', async () => {
    const started = Date.now();
    expect(await checkSite(byName('Slow'), EXISTING, options)).toBe('unknown');
    expect(Date.now() - started).toBeLessThan(2500);
    fake.slowMs = 100;
    expect(await checkSite(byName('Slow'), EXISTING, options)).toBe('found');
  });

  it('URL-encodes the username, strips the characters a site asks to, sends a browser agent and no cookie', async () => {
    await checkSite(byName('Codes'), 'a b-c', options);
    await checkSite(byName('Dotless'), 'al.ice', options);
    expect(fake.paths).toEqual(['/code/a%20b-c', '/code/alice']);
    expect(fake.userAgents.at(-1)).toMatch(/^Mozilla\/5\.0 /);
    expect(fake.cookies.every((c) => c === undefined)).toBe(true);
  });

  it('without the tests-only setting, loopback sites are refused before any request', async () => {
    const before = fake.paths.length;
    expect(await checkSite(byName('Codes'), EXISTING, { timeoutMs: 800, allowLoopback: false })).toBe('unknown');
    const viaName = { ...byName('Codes'), uri_check: `http://localhost:${PORT}/code/{account}` };
    expect(await checkSite(viaName, EXISTING, { timeoutMs: 800, allowLoopback: false })).toBe('unknown');
    expect(fake.paths.length).toBe(before);
  });
});

describe('the site list', () => {
  it('loads the shipped WhatsMyName data set: 716 sites, the broken one and the adult ones left out by default', () => {
    const data = loadSiteList(path.resolve('data/whatsmyname/wmn-data.json'));
    expect(data.sites).toHaveLength(716);
    expect(data.license[0]).toMatch(/Micah Hoffman/);
    const adult = data.sites.filter((s) => s.cat === 'xx NSFW xx' && s.valid !== false).length;
    expect(adult).toBeGreaterThan(30);
  });

  it('stops with a message naming the file and the problem', () => {
    const bad = path.join(tmpdir(), `wmn-bad-${process.pid}.json`);
    const broken = fakeSiteList('http://x');
    delete (broken.sites[0] as Record<string, unknown>).e_code;
    (broken.sites[1] as Record<string, unknown>).uri_check = 'ftp://x/{account}';
    writeFileSync(bad, JSON.stringify(broken));
    expect(() => loadSiteList(bad)).toThrow(
      new RegExp(
        `The WhatsMyName site list ${bad} is invalid:\\n  sites\\.0\\.e_code: .*\\n  sites\\.1\\.uri_check: an http\\(s\\) URL`,
      ),
    );
    writeFileSync(bad, '{ not json');
    expect(() => loadSiteList(bad)).toThrow(`The WhatsMyName site list ${bad} cannot be read`);
  });

  it('covers the valid sites, adult ones only when asked', () => {
    expect(sitesToCheck(false).map((s) => s.name)).not.toContain('Adult');
    expect(sitesToCheck(false).map((s) => s.name)).not.toContain('Retired');
    expect(sitesToCheck(true).map((s) => s.name)).toContain('Adult');
  });
});

describe('the username rule', () => {
  it.each([
    ['alice', null],
    ['Jo Kim', null],
    ['ana_maria-92.x', null],
    ['Ана', null],
    ['', 'Validation.usernameRequired'],
    ['x'.repeat(65), 'Validation.usernameLength'],
    ['anna@example.com', 'Validation.usernameEmail'],
    ['+1 415 555 2671', 'Validation.usernamePhone'],
    ['0812-3456-7877', 'Validation.usernamePhone'],
    ['<script>', 'Validation.usernameChars'],
    ['a/b', 'Validation.usernameChars'],
    ['a  b', 'Validation.usernameChars'],
  ])('%j → %s', (name, problem) => {
    expect(usernameProblem(name)).toBe(problem);
  });
});

describe('a lookup through the API', () => {
  const start = (username: string, extra: Record<string, string> = {}, ip?: string, lang = 'en') =>
    call('POST', '/usernameLookup', { body: { username, ...extra }, ip, headers: { 'accept-language': lang } });

  it.each([
    ['en', 'anna@example.com', 'Enter a username, not an e-mail address'],
    ['es', '+34 612 34 56 78', 'Introduce un nombre de usuario, no un número de teléfono'],
    ['id', 'x'.repeat(65), 'Nama pengguna paling banyak 64 karakter'],
  ])('refuses a bad username with a %s message and starts nothing', async (lang, username, msg) => {
    const db = await getDb();
    const [{ before }] = await db.select({ before: sql<number>`count(*)::int` }).from(usernameChecks);
    const res = await start(username, {}, undefined, lang);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: 0, msg, field: 'username' });
    const [{ after }] = await db.select({ after: sql<number>`count(*)::int` }).from(usernameChecks);
    expect(after).toBe(before);
  });

  it('checks every site at most 3 at once and lists the profiles found, with their links', async () => {
    fake.slowMs = 100;
    const res = await start(EXISTING);
    expect(res.status).toBe(201);
    const { id, total } = (await res.json()).obj;
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(total).toBe(10);
    const db = await getDb();
    await runUsernameCheck(db, sha256(id));
    expect(fake.maxInFlight).toBeLessThanOrEqual(3);
    expect(fake.maxInFlight).toBeGreaterThan(1);
    const view = (await (await call('GET', `/usernameLookup/${id}`)).json()).obj;
    expect(view).toMatchObject({ username: EXISTING, status: 'done', total: 10, checked: 10, unknown: 3 });
    expect(view.found).toEqual([
      { site: 'Api', category: 'social', url: 'https://api.example/u/alice' },
      { site: 'Codes', category: 'social', url: 'https://codes.example/alice' },
      { site: 'Dotless', category: 'social', url: `http://127.0.0.1:${PORT}/code/alice` },
      { site: 'Moved', category: 'social', url: `http://127.0.0.1:${PORT}/moved/alice` },
      { site: 'Redirects', category: 'social', url: `http://127.0.0.1:${PORT}/redirect-missing/alice` },
      { site: 'Slow', category: 'social', url: `http://127.0.0.1:${PORT}/slow/alice` },
      { site: 'Strings', category: 'coding', url: `http://127.0.0.1:${PORT}/string/alice` },
    ]);
    expect(fake.paths.some((p) => p.startsWith('/code/') && p !== '/code/alice')).toBe(false);
  });

  it('includes adult sites only when asked', async () => {
    const res = await start('bob', { nsfw: 'true' });
    expect((await res.json()).obj.total).toBe(11);
  });

  it('stops when the visitor stops it, keeping the answers so far', async () => {
    fake.slowMs = 600;
    const { id } = (await (await start('carol')).json()).obj;
    const db = await getDb();
    const started = Date.now();
    const job = runUsernameCheck(db, sha256(id));
    await new Promise((r) => setTimeout(r, 250));
    const stopped = await call('POST', `/usernameLookup/${id}/stop`);
    expect((await stopped.json()).obj.status).toBe('stopped');
    await job;
    expect(Date.now() - started).toBeLessThan(2000);
    const view = (await (await call('GET', `/usernameLookup/${id}`)).json()).obj;
    expect(view.status).toBe('stopped');
    expect(view.checked).toBeLessThan(view.total);
  });

  it('keeps a result for an hour under its id, then forgets it', async () => {
    const { id } = (await (await start('dave')).json()).obj;
    expect((await call('GET', `/usernameLookup/${id}`)).status).toBe(200);
    expect((await call('GET', `/usernameLookup/${id.slice(0, -2)}xx`)).status).toBe(404);
    const db = await getDb();
    await db.insert(usernameCheckResults).values({ checkIdHash: sha256(id), site: 'Codes', outcome: 'found' });
    await db
      .update(usernameChecks)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(usernameChecks.idHash, sha256(id)));
    expect((await call('GET', `/usernameLookup/${id}`)).status).toBe(404);
    expect(await pruneLookups(db)).toBeGreaterThanOrEqual(1);
    expect(
      await db
        .select()
        .from(usernameCheckResults)
        .where(eq(usernameCheckResults.checkIdHash, sha256(id))),
    ).toEqual([]);
  });

  it('limits lookups per IP: 10 an hour, even when 20 arrive at once', async () => {
    const ip = '203.0.113.77';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => start(`user${i}`, {}, ip)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});
