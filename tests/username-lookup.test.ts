import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { usernameCheckResults, usernameChecks } from '@/server/db/schema';
import { consumeAll, resetLimit } from '@/server/services/rate-limit';
import { sha256 } from '@/server/services/tokens';
import { isBlockedAddress } from '@/server/net/public-address';
import {
  checkSite,
  createLookup,
  decide,
  loadSiteList,
  pathAsWrittenAndParsed,
  pruneLookups,
  runUsernameCheck,
  sitesToCheck,
  type WmnSite,
} from '@/server/services/lookups';
import { usernameProblem } from '@/lib/validation/username';
import { lookupVerdict } from '@/lib/username-verdict';
import { call } from './support/accounts';
import { EXISTING, FakeSites, FOUND_SITES, fakeSiteList, UNREACHABLE } from './support/fake-sites';

// The reverse username lookup against a local fake of a few sites, one per WhatsMyName detection rule
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
  // 15 lookups of the 10 fake sites an hour; a full lookup makes 14 requests (redirect hops count).
  process.env.USERNAME_LOOKUP_FETCHES_PER_HOUR = '150';
  return port;
});
const fake = new FakeSites();
const dataSet = fakeSiteList(`http://127.0.0.1:${PORT}`);
writeFileSync(process.env.USERNAME_SITES_FILE!, JSON.stringify(dataSet));
const byName = (name: string) => dataSet.sites.find((s) => s.name === name) as unknown as WmnSite;

beforeAll(() => fake.start(PORT));
afterAll(() => fake.stop());
const CAP = 150;
beforeEach(async () => {
  fake.paths = [];
  fake.maxInFlight = 0;
  fake.slowMs = 3000;
  // The service-wide hour starts afresh for each test (the database is shared by the whole run).
  await resetLimit('usernameLookupSites', 'all');
  await resetLimit('usernameLookupFetches', 'all');
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
    // IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): loopback, the cloud metadata address, even a public one.
    '::7f00:1',
    '::a9fe:a9fe',
    '::a00:1',
    '::808:808',
    // IPv4-mapped and IPv4-translated, in either notation.
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:0:a00:1',
    // NAT64 (RFC 6052) and 6to4 (RFC 3056) carrying a non-public IPv4 address; NAT64's local-use prefix; Teredo.
    '64:ff9b::7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:101::1',
    '64:ff9b:1::808:808',
    '2001::1',
  ])('%s is blocked', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    // A DNS64 network's address for a public IPv4-only site, and 6to4 of a public address.
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(isBlockedAddress(ip)).toBe(false);
  });

  it('the tests-only loopback setting does not open IPv4-compatible loopback or the metadata address', () => {
    for (const ip of ['::7f00:1', '::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::']) {
      expect(isBlockedAddress(ip, true)).toBe(true);
    }
  });

  it('refuses a site named by an IPv4-compatible loopback literal before any request', async () => {
    const site = { ...byName('Codes'), uri_check: `http://[::7f00:1]:${PORT}/code/{account}` };
    expect(await checkSite(site, EXISTING, { timeoutMs: 800, allowLoopback: true })).toBe('unknown');
    expect(fake.paths).toEqual([]);
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

describe('dot segments', () => {
  const options = { timeoutMs: 800, allowLoopback: true };
  const deep = { ...byName('Codes'), uri_check: `http://127.0.0.1:${PORT}/code/x/{account}/profile` };

  it('a username `..` is never requested as the page two levels up', async () => {
    expect(await checkSite(deep, '..', options)).toBe('unknown');
    expect(await checkSite(deep, '.', options)).toBe('unknown');
    expect(fake.paths).toEqual([]);
    expect(await checkSite(deep, 'x', options)).toBe('not_found');
    expect(fake.paths).toEqual(['/code/x/x/profile']);
  });

  it('nor one that becomes `..` once a site strips its characters', async () => {
    expect(await checkSite({ ...deep, strip_bad_char: '-' }, '.-.', options)).toBe('unknown');
    expect(fake.paths).toEqual([]);
  });

  it.each([
    ['http://s.example/t/x/../profile', '/t/x/../profile', '/t/profile'],
    ['http://s.example/t/x/%2e%2E/profile', '/t/x/%2e%2E/profile', '/t/profile'],
    ['http://s.example/t/./p', '/t/./p', '/t/p'],
    ['http://s.example/t/a.b/p', '/t/a.b/p', '/t/a.b/p'],
    ['http://s.example', '/', '/'],
    ['http://s.example?q=/../x', '/', '/'],
    ['http://s.example/u/%D0%90', '/u/%D0%90', '/u/%D0%90'],
  ])('%s: written %s, requested %s', (raw, written, parsed) => {
    expect(pathAsWrittenAndParsed(raw)).toEqual({ written, parsed });
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
    ['.', 'Validation.usernameLetters'],
    ['..', 'Validation.usernameLetters'],
    [' .. ', 'Validation.usernameLetters'],
    ['...', 'Validation.usernameLetters'],
    ['.-.', 'Validation.usernameLetters'],
    ['_', 'Validation.usernameLetters'],
    ['..a', null],
    ['a.b', null],
    ['.1', null],
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
    ['en', '..', 'A username needs at least one letter or digit'],
    ['es', '.', 'Un nombre de usuario necesita al menos una letra o una cifra'],
    ['id', '..', 'Nama pengguna harus berisi setidaknya satu huruf atau angka'],
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

  it('counts an IPv6 client by its /64 and an IPv4-mapped client by its IPv4 address', async () => {
    const sameNetwork = Array.from({ length: 12 }, (_, i) => `2001:db8:77:1:${(i + 1).toString(16)}::${i + 7}`);
    const statuses = [];
    for (const ip of sameNetwork) statuses.push((await start(`net${statuses.length}`, {}, ip)).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
    expect((await start('neighbour', {}, '2001:db8:77:2::1')).status).toBe(201);

    await resetLimit('usernameLookupSites', 'all');
    const v4 = '198.51.100.23';
    const mapped = await Promise.all(Array.from({ length: 9 }, () => start('mapped', {}, `::ffff:${v4}`)));
    expect(mapped.map((r) => r.status)).toEqual(Array(9).fill(201));
    expect((await start('mapped', {}, '::ffff:c633:6417')).status).toBe(201);
    const res = await start('mapped', {}, v4);
    expect(res.status).toBe(429);
    expect((await res.json()).msg).toMatch(/^Too many attempts/);
  });
});

describe('the service-wide hourly budget of outbound requests', () => {
  const start = (username: string, ip: string, lang = 'en') =>
    call('POST', '/usernameLookup', { body: { username }, ip, headers: { 'accept-language': lang } });
  const busy = {
    en: /^Username lookups are busy right now: .* \(in at most \d+ min\)\.$/,
    es: /^Las búsquedas de nombres de usuario están ocupadas ahora mismo: .* \(dentro de \d+ min como máximo\)\.$/,
    id: /^Pencarian nama pengguna sedang sibuk: .* \(paling lama \d+ menit lagi\)\.$/,
  };
  const countChecks = async () => {
    const [{ n }] = await (await getDb()).select({ n: sql<number>`count(*)::int` }).from(usernameChecks);
    return n;
  };

  it('admits lookups from 25 addresses only while all their sites fit, then answers busy with Retry-After', async () => {
    const before = await countChecks();
    const answers = [];
    for (let i = 0; i < 25; i++) {
      const lang = (['en', 'es', 'id'] as const)[i % 3];
      const res = await start(`spread${i}`, `203.0.113.${i + 1}`, lang);
      answers.push({ lang, status: res.status, retry: res.headers.get('retry-after'), body: await res.json() });
    }
    const admitted = CAP / 10;
    expect(answers.slice(0, admitted).every((a) => a.status === 201)).toBe(true);
    for (const a of answers.slice(admitted)) {
      expect(a.status).toBe(429);
      expect(Number(a.retry)).toBeGreaterThan(3500);
      expect(Number(a.retry)).toBeLessThanOrEqual(3600);
      expect(a.body).toMatchObject({ success: 0 });
      expect(a.body.msg).toMatch(busy[a.lang]);
    }
    expect((await countChecks()) - before).toBe(admitted);

    // A start refused as busy does not use up the client's own tries: 12 refusals, all "busy", none "too many".
    const refused = [];
    for (let i = 0; i < 12; i++) refused.push(await (await start('again', '203.0.113.200')).json());
    expect(refused.every((b) => busy.en.test(b.msg))).toBe(true);
  });

  it('never admits more than the budget when 30 lookups from 30 addresses start at once', async () => {
    const before = await countChecks();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => start(`rush${i}`, `192.0.2.${i + 1}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAP / 10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - CAP / 10);
    expect((await countChecks()) - before).toBe(CAP / 10);
  });

  it('stops a running lookup when the requests run out: the sites left are not asked and the result says so', async () => {
    fake.slowMs = 100;
    const { id } = (await (await start(EXISTING, '192.0.2.200')).json()).obj;
    // Other lookups, elsewhere, have spent all but 5 requests of this hour.
    await consumeAll('usernameLookupFetches', 'all', CAP - 5);
    await runUsernameCheck(await getDb(), sha256(id));
    expect(fake.paths).toHaveLength(5);
    const view = (await (await call('GET', `/usernameLookup/${id}`)).json()).obj;
    expect(view.status).toBe('capped');
    expect(view.checked).toBeLessThanOrEqual(5);
    expect(view.notChecked).toBe(view.total - view.checked);
    expect(view.notChecked).toBeGreaterThanOrEqual(5);

    // While the requests are spent, a new lookup is refused as busy (and the client keeps its try).
    const next = await start('bob', '192.0.2.201', 'es');
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await next.json()).msg).toMatch(busy.es);
  });

  it('never sends more requests than the budget when 20 lookups run at once', async () => {
    fake.slowMs = 100;
    const db = await getDb();
    const ids = [];
    for (let i = 0; i < 20; i++) {
      await resetLimit('usernameLookupSites', 'all');
      ids.push((await createLookup(db, i % 2 ? EXISTING : `crowd${i}`, false)).id);
    }
    await Promise.all(ids.map((id) => runUsernameCheck(db, sha256(id))));
    expect(fake.paths.length).toBeLessThanOrEqual(CAP);
    expect(fake.paths.length).toBeGreaterThan(CAP - 20);
    const views = await Promise.all(
      ids.map(async (id) => (await (await call('GET', `/usernameLookup/${id}`)).json()).obj),
    );
    expect(views.filter((v) => v.status === 'capped').length).toBeGreaterThan(0);
    for (const v of views) expect(v.checked + v.notChecked).toBe(v.total);
  });
});

describe('what a lookup shows while it runs and how its result reads', () => {
  const start = (username: string, ip: string) => call('POST', '/usernameLookup', { body: { username }, ip });
  const read = async (id: string) => (await (await call('GET', `/usernameLookup/${id}`)).json()).obj;

  it('lists the profiles found so far while the slow site still holds the lookup open', async () => {
    fake.slowMs = 3000;
    const { id } = (await (await start(EXISTING, '198.51.100.10')).json()).obj;
    const job = runUsernameCheck(await getDb(), sha256(id));
    let view = await read(id);
    for (let i = 0; i < 40 && view.found.length < 6; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await read(id);
    }
    // The fast sites answered, the slow one (answering after the 800 ms time-out) has not: still running.
    expect(view.status).toBe('running');
    expect(view.checked).toBeLessThan(view.total);
    expect(view.notChecked).toBe(0);
    expect(view.found.map((f: { site: string }) => f.site)).toEqual(FOUND_SITES);
    expect(lookupVerdict(view).kind).toBe('running');
    await job;
    expect(lookupVerdict(await read(id))).toMatchObject({ kind: 'found', found: 6, unclear: 4 });
  });

  it('the OpenAPI document says the found list fills in while the lookup runs', async () => {
    const doc = await (await call('GET', '/openapi.json')).json();
    const schema = doc.paths['/api_f/v1/usernameLookup/{id}'].get.responses['200'].content['application/json'].schema;
    const view = schema.properties.obj;
    expect(view.required).toEqual(expect.arrayContaining(['status', 'total', 'checked', 'unknown', 'found']));
    expect(view.properties.found.description).toMatch(/filled in as sites answer while the lookup runs/);
  });

  it('a lookup most sites fail for reads as unknown, not as "no profile found"', async () => {
    const { id } = (await (await start(UNREACHABLE, '198.51.100.11')).json()).obj;
    await runUsernameCheck(await getDb(), sha256(id));
    const view = await read(id);
    expect(view).toMatchObject({ status: 'done', total: 10, checked: 10, unknown: 8, found: [] });
    expect(lookupVerdict(view)).toMatchObject({ kind: 'unknown', clear: 2, unclear: 8 });
  });
});
