// `npx tsx bench/live.ts` (after `npm run build`): how many buyers' live streams one app process holds while owners post
// fixes, written to bench/live-report.md. One app process (the production build, `scripts/start.mjs`) on a throwaway
// embedded PostgreSQL; BENCH_LIVE_CLIENTS client processes (default 2) hold BENCH_LIVE_STREAMS streams (default 5,000)
// of `GET /api_f/v1/gpsTrace/phoneLocation/{id}/live`, BENCH_LIVE_PER_REQUEST streams per request (default 1: each
// stream its own request); this process posts fixes (`PUT /spyContent/phoneLocation/{code}`, action `position`) at
// two phases of BENCH_LIVE_SECONDS (default 20), spread round-robin over the requests: first at the rate one instance
// is rated for (BENCH_LIVE_RATED, default 100 a second: docs/deploy.md), which must meet the goal, then at
// BENCH_LIVE_RATE (default 200), to show what an overloaded process takes and that it loses nothing.
// Measured: fan-out latency (fix committed → `position` event at each of its streams), RSS of the server process per
// open stream (/proc/<pid>/status VmRSS, proc(5)), its CPU share (/proc/<pid>/stat utime+stime), and every error.
// The buyers are bought through the API (a few); their requests are inserted directly into the database as sharing.
// One engine of the live broker per run (docs/decisions/0019-live-broker.md): BENCH_LIVE_BROKER=postgres (the default,
// NOTIFY) or redis (REDIS_URL, a redis-server started for the run on a free port, tests/support/redis.ts); its report
// in BENCH_LIVE_OUT (default bench/live-report.md). `npm run bench:live` runs both through bench/live-engines.ts.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startBenchServer, UNCAPPED, loadAverages, quantile } from './server';
import { openSse, wallNow, type SseStream } from './sse-client';
import { startRedis, type TestRedis } from '../tests/support/redis';
import type { EngineSummary } from './live-engines';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3340;
const PG_PORT = 55443;
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 5000);
const PER_REQUEST = Number(process.env.BENCH_LIVE_PER_REQUEST ?? 1);
/** The rate one instance is rated for (docs/deploy.md, "Live location streams"): the goal holds there. */
const RATED = Number(process.env.BENCH_LIVE_RATED ?? 100);
/** The overload phase's rate: what the process then takes, and that nothing is lost. */
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 2);
/** The live broker's engine of this run: `postgres` (the default) or `redis`. */
const BROKER = process.env.BENCH_LIVE_BROKER === 'redis' ? 'redis' : 'postgres';
/** Where the run writes its report (bench/live-engines.ts gives each engine its own file). */
const REPORT = process.env.BENCH_LIVE_OUT ?? path.join(root, 'bench', 'live-report.md');
/** Where the run writes its headline figures for bench/live-engines.ts (JSON), if set. */
const SUMMARY = process.env.BENCH_LIVE_SUMMARY;
const BUYERS = 10;
/** Streams a client process opens at once. */
const OPEN_CONCURRENCY = 32;
/** Fixes waiting for their answer at most; beyond, a fix is not sent (the poster would only pile up requests). */
const MAX_IN_FLIGHT = 256;
/**
 * Goal at the rated rate: the `PUT` answered, and the fix sent → its event at the buyer's stream, within GOAL_P99_MS at
 * the 99th percentile (the live map's goal, docs/deploy.md "Live location streams"); RSS growth per open stream (a bare Node
 * server and its clients: 23 KiB per pair).
 */
const GOAL_P99_MS = 250;
const GOAL_KIB_PER_STREAM = 32;
/** A fix's latitude carries its sequence number, so an event names the fix it belongs to. */
const latitudeOf = (seq: number) => -50 + seq * 1e-4;
const seqOf = (latitude: number) => Math.round((latitude + 50) * 1e4);

type Item = { id: string; cookie: string };
/** Messages from a client process. */
type FromClient =
  | { type: 'opened'; ok: number; failed: number; errors: string[]; openMs: number[] }
  | { type: 'events'; positions: number[]; states: number; traces: number; endedEarly: number; endReasons: string[] };

// ---------------------------------------------------------------------------------------------------------------
// A client process: holds its share of the streams and records when each `position` event arrives.
if (process.env.BENCH_LIVE_ROLE === 'streams') {
  const streams: SseStream[] = [];
  // [fix sequence, arrival ms, recordedAt ms] per position event, flat.
  let positions: number[] = [];
  let states = 0;
  let traces = 0;
  let endedEarly = 0;
  const endReasons: string[] = [];
  let closing = false;
  process.on('message', async (msg: { type: string; origin?: string; items?: Item[] }) => {
    if (msg.type === 'open') {
      const items = msg.items!;
      let next = 0;
      let failed = 0;
      const errors: string[] = [];
      const openMs: number[] = [];
      await Promise.all(
        Array.from({ length: OPEN_CONCURRENCY }, async () => {
          while (next < items.length) {
            const item = items[next++];
            const started = performance.now();
            let traced: () => void = () => {};
            const firstTrace = new Promise<void>((r) => (traced = r));
            try {
              const stream = await openSse(msg.origin!, item.id, item.cookie, (e) => {
                if (e.event === 'position') {
                  const p = JSON.parse(e.data) as { latitude: number; recordedAt: string };
                  positions.push(seqOf(p.latitude), e.at, Date.parse(p.recordedAt));
                } else if (e.event === 'state') states += 1;
                else if (e.event === 'trace') {
                  traces += 1;
                  traced();
                }
              });
              streams.push(stream);
              void stream.closed.then((why) => {
                if (closing) return;
                endedEarly += 1;
                if (endReasons.length < 5) endReasons.push(why);
              });
              await firstTrace;
              openMs.push(performance.now() - started);
            } catch (error) {
              failed += 1;
              if (errors.length < 5) errors.push(String(error));
            }
          }
        }),
      );
      process.send!({ type: 'opened', ok: openMs.length, failed, errors, openMs } satisfies FromClient);
    } else if (msg.type === 'collect') {
      // What arrived since the last collect (one phase).
      process.send!({ type: 'events', positions, states, traces, endedEarly, endReasons } satisfies FromClient);
      positions = [];
      states = 0;
      endedEarly = 0;
      endReasons.length = 0;
    } else if (msg.type === 'close') {
      closing = true;
      for (const s of streams) s.close();
      setTimeout(() => process.exit(0), 200);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

/** The processes below `pid` (proc(5): field 4 of /proc/<pid>/stat is the parent). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};
/** Resident set size (KiB), /proc/<pid>/status VmRSS. */
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const CLK_TCK = 100;
/** CPU time used by `pids` so far (ms): utime + stime, fields 14 and 15 of /proc/<pid>/stat. */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return (ticks * 1000) / CLK_TCK;
}
const METRICS_TOKEN = 'bench-live-metrics-token';
/** The app's V8 heap in use and its memory outside the heap (KiB), from its Prometheus metrics (prom-client defaults). */
async function heapOf(origin: string) {
  const text = await (
    await fetch(`${origin}/api_f/v1/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024;
  return { used: metric('nodejs_heap_size_used_bytes'), external: metric('nodejs_external_memory_bytes') };
}
const HEAP = process.env.BENCH_LIVE_HEAP === '1';
const snapshotDir =
  process.env.BENCH_LIVE_ROLE === 'streams' || !HEAP ? '' : mkdtempSync(path.join(os.tmpdir(), 'bench-live-heap-'));
/**
 * Has the app write a heap snapshot (SIGUSR2, `--heapsnapshot-signal`), which runs a full garbage collection first,
 * waits until the file is complete, deletes it, and returns the app's RSS and heap in use then (KiB).
 */
async function collectGarbage(pid: number, origin: string) {
  const before = new Set(readdirSync(snapshotDir));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 240; i++) {
    await sleep(500);
    const fresh = readdirSync(snapshotDir).filter((f) => !before.has(f));
    // The app answers again once the snapshot (written on its main thread) is done.
    if (
      fresh.length > 0 &&
      (await fetch(`${origin}/api_f/v1/health`)
        .then((r) => r.ok)
        .catch(() => false))
    ) {
      for (const f of fresh) rmSync(path.join(snapshotDir, f), { force: true });
      return { rss: rssKiB(pid), used: (await heapOf(origin)).used };
    }
  }
  throw new Error('no heap snapshot written');
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '—');

async function main() {
  const runStarted = Date.now();
  const loadAtStart = loadAverages();
  const redis: TestRedis | null = BROKER === 'redis' ? await startRedis() : null;
  const server = await startBenchServer(PORT, PG_PORT, {
    ...UNCAPPED,
    ...(redis ? { REDIS_URL: redis.url } : {}),
    METRICS_TOKEN: METRICS_TOKEN,
    // BENCH_LIVE_PROFILE=<dir>: the app process writes a V8 CPU profile there when it exits (`node --cpu-prof`).
    // BENCH_LIVE_HEAP=1: the app writes a heap snapshot on SIGUSR2 (after a full garbage collection), to read the heap
    // that stays per stream; the snapshots take minutes and gigabytes, so RSS and time are not comparable then.
    SERVE_NODE_ARGS: [
      HEAP ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotDir}` : '',
      process.env.BENCH_LIVE_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_LIVE_PROFILE}` : '',
    ].join(' '),
  });
  const clients: ChildProcess[] = [];
  try {
    const appPid = descendants(server.pid).find((p) => cmdline(p).includes('scripts/start.mjs'));
    if (!appPid) throw new Error('app process not found');
    const pgPids = () =>
      descendants(appPid).filter((p) => cmdline(p).startsWith('postgres') || /postgres/.test(cmdline(p)));
    const base = `${server.origin}/api_f/v1`;
    const call = async (method: string, url: string, body: unknown, cookie?: string) => {
      const res = await fetch(base + url, {
        method,
        headers: { website_type: '7', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
      return { res, json: (await res.json()) as { obj: Record<string, unknown> } };
    };

    // Buyers through the purchase flow; their requests copied in the database, each sharing for an hour.
    const buyers: { code: string; cookie: string }[] = [];
    for (let i = 0; i < BUYERS; i++) {
      const order = await call('POST', '/portal/order', {
        email: `live${i}@example.com`,
        phone: `+1415556${String(i).padStart(4, '0')}`,
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
      });
      const code = order.json.obj.code as string;
      const pay = await call('POST', `/portal/order/${code}/sandboxPay`, {
        cardNumber: '4242424242424242',
        expiry: '12/34',
        cvc: '123',
        zip: '10001',
      });
      buyers.push({ code, cookie: /token=[^;]+/.exec(pay.res.headers.get('set-cookie') ?? '')![0] });
    }
    const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${PG_PORT}/app`;
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows: templates } = await db.query(
      `select o.code, r.user_id, r.order_id, r.target_e164, r.requester_name, r.locale, r.sms_text
       from location_requests r join orders o on o.id = r.order_id where o.code = any($1)`,
      [buyers.map((b) => b.code)],
    );
    const requestCount = Math.ceil(STREAMS / PER_REQUEST);
    const consentCodes = Array.from({ length: requestCount }, (_, i) => `bench-live-${String(i).padStart(8, '0')}`);
    const templateOf = (i: number) => templates[i % templates.length];
    // Each consent code goes with the template of its index.
    const { rows: inserted } = await db.query(
      `insert into location_requests (user_id, order_id, target_e164, requester_name, locale, consent_code_hash,
         sms_text, first_shared_at, status, sharing_until, expires_at, owner_seen_at)
       select (t.t->>'user_id')::uuid, (t.t->>'order_id')::uuid, t.t->>'target_e164', t.t->>'requester_name', t.t->>'locale',
         encode(sha256(convert_to(c.c, 'UTF8')), 'hex'), t.t->>'sms_text', now(), 'sharing',
         now() + interval '1 hour', now() + interval '1 day', now()
       from unnest($1::text[]) with ordinality c(c, n) join unnest($2::jsonb[]) with ordinality t(t, n) using (n)
       order by n
       returning id, user_id, consent_code_hash`,
      [consentCodes, consentCodes.map((_, i) => JSON.stringify(templateOf(i)))],
    );
    // A short trail on each (5 fixes), as a share that has run a while.
    await db.query(
      `insert into positions (request_id, source, latitude, longitude, accuracy_m)
       select r, 'gps', 48.85 + g * 0.001, 2.29, 10 from unnest($1::uuid[]) r, generate_series(1, 5) g`,
      [inserted.map((r) => r.id as string)],
    );
    const cookieOf = new Map(
      templates.map((t) => [t.user_id as string, buyers.find((b) => b.code === t.code)!.cookie] as const),
    );
    const requests = inserted.map((r) => ({ id: r.id as string, cookie: cookieOf.get(r.user_id as string)! }));
    const codeByHash = new Map(consentCodes.map((c) => [createHash('sha256').update(c).digest('hex'), c]));
    const codeOf = new Map(inserted.map((r) => [r.id as string, codeByHash.get(r.consent_code_hash as string)!]));
    await db.end();

    // Warm-up: compile the routes, fill the pool, connect the hub; then the baseline RSS.
    const warm: SseStream[] = [];
    for (let i = 0; i < 50; i++) warm.push(await openSse(server.origin, requests[i].id, requests[i].cookie, () => {}));
    for (let i = 0; i < 20; i++)
      await call('PUT', `/spyContent/phoneLocation/${codeOf.get(requests[i].id)}`, {
        action: 'position',
        latitude: 10,
        longitude: 10,
        accuracy: 10,
      });
    for (const s of warm) s.close();
    await sleep(3000);
    const rssBefore = rssKiB(appPid);
    const heapBefore = await heapOf(server.origin);
    const collectedBefore = HEAP ? await collectGarbage(appPid, server.origin) : null;

    // Open the streams: each client process gets an equal share.
    const items: Item[] = [];
    for (let i = 0; i < STREAMS; i++) items.push(requests[i % requests.length]);
    const replies: ((m: FromClient) => void)[] = [];
    for (let c = 0; c < CLIENTS; c++) {
      const child = fork(import.meta.filename, [], {
        env: { ...process.env, BENCH_LIVE_ROLE: 'streams' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      clients.push(child);
      child.on('message', (m: FromClient) => replies[c]?.(m));
    }
    const ask = <T extends FromClient['type']>(c: number, msg: object, type: T) =>
      new Promise<Extract<FromClient, { type: T }>>((resolve) => {
        replies[c] = (m) => {
          if (m.type === type) resolve(m as Extract<FromClient, { type: T }>);
        };
        clients[c].send(msg);
      });
    const openCpu0 = cpuMs([appPid]);
    const openStarted = performance.now();
    const opened = await Promise.all(
      clients.map((_, c) =>
        ask(c, { type: 'open', origin: server.origin, items: items.filter((_, i) => i % CLIENTS === c) }, 'opened'),
      ),
    );
    const openSeconds = (performance.now() - openStarted) / 1000;
    const openCpu = cpuMs([appPid]) - openCpu0;
    const openOk = opened.reduce((n, o) => n + o.ok, 0);
    const openFailed = opened.reduce((n, o) => n + o.failed, 0);
    const openMs = opened.flatMap((o) => o.openMs);
    await sleep(5000);
    const rssOpen = rssKiB(appPid);
    const heapOpen = await heapOf(server.origin);
    const collectedOpen = HEAP ? await collectGarbage(appPid, server.origin) : null;
    const clientRss = clients.map((c) => rssKiB(c.pid!));

    const dbPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const order = requests.map((r) => r.id).sort(() => Math.random() - 0.5);
    let seq = 0;
    /**
     * Posts `rate` fixes a second for SECONDS through `PUT /spyContent/phoneLocation/{code}`, open loop (each sent on
     * time whether or not the last was answered; at most MAX_IN_FLIGHT waiting, beyond that a fix is counted as not
     * sent), round-robin over the requests. Then collects what the streams received and matches it to the fixes.
     */
    const runFixes = async (rate: number) => {
      const sentAt = new Map<number, number>();
      const accepted: number[] = [];
      const errorKinds = new Map<string, number>();
      const answerMs: number[] = [];
      let errors = 0;
      let skipped = 0;
      let inFlight = 0;
      // Per PostgreSQL process (a backend that ends during the phase takes its CPU time with it).
      const pgAtStart = new Map(pgPids().map((p) => [p, cpuMs([p])]));
      const cpu0 = { app: cpuMs([appPid]), clients: cpuMs(clients.map((c) => c.pid!)) };
      const commits0 = await commitsOf(dbPool);
      const self0 = process.cpuUsage();
      const started = performance.now();
      const first = seq;
      const total = rate * SECONDS;
      const pending = new Set<Promise<void>>();
      const fail = (kind: string) => {
        errors += 1;
        errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
      };
      while (seq - first < total) {
        const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
        while (seq - first < due) {
          const s = seq++;
          if (inFlight >= MAX_IN_FLIGHT) {
            skipped += 1;
            continue;
          }
          const id = order[s % order.length];
          inFlight += 1;
          const t0 = wallNow();
          sentAt.set(s, t0);
          const sent: Promise<unknown> = call('PUT', `/spyContent/phoneLocation/${codeOf.get(id)}`, {
            action: 'position',
            latitude: latitudeOf(s),
            longitude: 2.29,
            accuracy: 10,
          }).then(({ res }) => {
            if (res.status !== 200) throw new Error(`status ${res.status}`);
          });
          const done: Promise<void> = sent
            .then(() => {
              answerMs.push(wallNow() - t0);
              accepted.push(s);
            })
            .catch((error: unknown) => fail(String((error as Error).cause ?? (error as Error).message).slice(0, 80)))
            .finally(() => {
              inFlight -= 1;
              pending.delete(done);
            });
          pending.add(done);
        }
        await sleep(5);
      }
      await Promise.all(pending);
      const seconds = (performance.now() - started) / 1000;
      const commits = (await commitsOf(dbPool)) - commits0;
      const selfCpu = process.cpuUsage(self0);
      const cpu = {
        app: cpuMs([appPid]) - cpu0.app,
        pg: pgPids().reduce((sum, p) => sum + cpuMs([p]) - (pgAtStart.get(p) ?? 0), 0),
        clients: cpuMs(clients.map((c) => c.pid!)) - cpu0.clients,
        poster: (selfCpu.user + selfCpu.system) / 1000,
      };
      await sleep(3000);
      // Each accepted fix must reach every stream of its request exactly once.
      const collected = await Promise.all(clients.map((_, c) => ask(c, { type: 'collect' }, 'events')));
      const sentMs: number[] = [];
      const commitMs: number[] = [];
      const seen = new Map<number, number>();
      for (const got of collected) {
        const p = got.positions;
        for (let i = 0; i < p.length; i += 3) {
          const s = p[i];
          if (!sentAt.has(s)) continue;
          seen.set(s, (seen.get(s) ?? 0) + 1);
          sentMs.push(p[i + 1] - sentAt.get(s)!);
          commitMs.push(p[i + 1] - p[i + 2]);
        }
      }
      let missing = 0;
      let doubled = 0;
      for (const s of accepted) {
        const n = seen.get(s) ?? 0;
        if (n < PER_REQUEST) missing += PER_REQUEST - n;
        if (n > PER_REQUEST) doubled += n - PER_REQUEST;
      }
      return {
        rate,
        sent: sentAt.size,
        skipped,
        accepted: accepted.length,
        errors,
        errorKinds: [...errorKinds].map(([k, n]) => `${k} ×${n}`).join(', '),
        seconds,
        answerMs,
        sentMs,
        commitMs,
        received: sentMs.length,
        missing,
        doubled,
        states: collected.reduce((n, c) => n + c.states, 0),
        endedEarly: collected.reduce((n, c) => n + c.endedEarly, 0),
        endReasons: collected.flatMap((c) => c.endReasons),
        cpu,
        rss: rssKiB(appPid),
        commitsPerSecond: commits / seconds,
      };
    };
    const rated = await runFixes(RATED);
    const viaApi = await runFixes(RATE);
    await dbPool.end();

    for (const c of clients) c.send({ type: 'close' });
    await sleep(5000);
    const rssClosed = rssKiB(appPid);

    const perStream = (rssOpen - rssBefore) / Math.max(1, openOk);
    const errorsOf = (r: typeof viaApi) => r.errors + r.missing + r.doubled + r.endedEarly;
    /**
     * `met`, or what missed the goal: at the rated rate every fix taken, the `PUT` and fix sent → event within
     * GOAL_P99_MS at p99; at the overload rate nothing lost or doubled (the process takes what it can).
     */
    const goal = (r: typeof viaApi) => {
      const atRated = r.rate <= RATED;
      const misses = [
        openOk < STREAMS ? `${openOk} streams open` : '',
        atRated && r.accepted < r.rate * SECONDS * 0.95 ? `${(r.accepted / r.seconds).toFixed(0)} fixes/s` : '',
        atRated && quantile(r.answerMs, 0.99) > GOAL_P99_MS ? `PUT p99 ${ms(quantile(r.answerMs, 0.99))}` : '',
        atRated && quantile(r.sentMs, 0.99) > GOAL_P99_MS ? `fix → event p99 ${ms(quantile(r.sentMs, 0.99))}` : '',
        perStream > GOAL_KIB_PER_STREAM ? `${perStream.toFixed(1)} KiB per stream` : '',
        openFailed + errorsOf(r) > 0 ? `${openFailed + errorsOf(r)} errors` : '',
      ].filter(Boolean);
      return misses.length === 0 ? 'met' : `NOT met (${misses.join(', ')})`;
    };
    const core = (x: number, seconds: number) => `${((x / 1000 / seconds) * 100).toFixed(0)} %`;
    const column = (r: typeof viaApi) => ({
      goal: goal(r),
      rows: [
        `${r.sent} / ${r.accepted} / ${r.errors}${r.errorKinds ? ` (${r.errorKinds})` : ''}`,
        `${r.skipped}`,
        `${(r.accepted / r.seconds).toFixed(0)}`,
        `${ms(quantile(r.answerMs, 0.5))} / ${ms(quantile(r.answerMs, 0.99))}`,
        `**${ms(quantile(r.commitMs, 0.5))} / ${ms(quantile(r.commitMs, 0.99))}** (max ${ms(Math.max(...r.commitMs))})`,
        `${ms(quantile(r.sentMs, 0.5))} / ${ms(quantile(r.sentMs, 0.95))} / ${ms(quantile(r.sentMs, 0.99))}`,
        `${r.accepted * PER_REQUEST} / ${r.received} / ${r.missing} / ${r.doubled}`,
        `${r.states}`,
        `${r.endedEarly}${r.endReasons.length ? ` (${r.endReasons.slice(0, 2).join('; ')})` : ''}`,
        `${core(r.cpu.app, r.seconds)} / ${core(r.cpu.pg, r.seconds)} / ${core(r.cpu.clients, r.seconds)} / ${core(r.cpu.poster, r.seconds)}`,
        `${(r.rss / 1024).toFixed(0)} MiB`,
        `${r.commitsPerSecond.toFixed(0)}`,
      ],
    });
    const d = column(rated);
    const a = column(viaApi);
    const labels = [
      'fixes sent / accepted / failed',
      `fixes not sent (${MAX_IN_FLIGHT} already waiting)`,
      'fixes per second achieved',
      'the `PUT` answered, p50 / p99',
      '**fan-out: fix committed (`recordedAt`) → `position` event at its stream, p50 / p99**',
      '**fix sent → `position` event at its stream, p50 / p95 / p99**',
      'position events expected / received / missing / doubled',
      '`state` events received (the heartbeat of each fix)',
      'streams ended during the phase',
      'CPU (share of one core): app / PostgreSQL / stream clients / fix poster',
      'app RSS after the phase',
      "the database's commits a second (`pg_stat_database.xact_commit`)",
    ];
    const report = `# Live streams: capacity of one app process

Measured ${new Date().toISOString()} by \`npm run bench:live\` on the production build (${os.cpus().length} cores,
${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}), embedded PostgreSQL, everything on this one
machine: the app process, PostgreSQL, the live broker on ${BROKER === 'redis' ? 'Redis (a local redis-server)' : "PostgreSQL's NOTIFY"}, ${CLIENTS} client processes holding the streams (raw \`node:http\`, one socket
per stream, bench/sse-client.ts) and the process posting the fixes. Load average when the run began:
${loadAtStart}. The run took ${((Date.now() - runStarted) / 1000).toFixed(0)} s.

Setup: ${BUYERS} buyers bought through the API (order, sandbox payment; their session cookies); ${requestCount} requests
of theirs inserted directly into the database as \`sharing\` (each with 5 positions), ${PER_REQUEST} stream(s) per
request, ${STREAMS} streams in all. Then two phases of ${SECONDS} s of fixes through the API (\`PUT
/spyContent/phoneLocation/{code}\`, \`action: position\`, as owners' pages post them), open loop, round-robin over the
requests in a random order (under the 90-a-minute limit of each), each fix a position (a \`position\` event) and at
times a heartbeat (\`owner_seen_at\`, a \`state\` event): first at ${RATED}/s, the rate one instance is rated for
(docs/deploy.md), then at ${RATE}/s, more than one process takes, to see what it takes and that nothing is lost.

**Goal at ${RATED} fixes/s (${STREAMS} streams, the \`PUT\` and fix sent → event p99 ≤ ${GOAL_P99_MS} ms,
≤ ${GOAL_KIB_PER_STREAM} KiB per stream, no error): ${d.goal}. At ${RATE} fixes/s (nothing lost or doubled): ${a.goal}.**

| opening the streams | value |
| --- | --- |
| streams opened / failed | ${openOk} / ${openFailed}${
      openFailed
        ? ` (${opened
            .flatMap((o) => o.errors)
            .slice(0, 2)
            .join('; ')})`
        : ''
    } |
| all streams | ${openSeconds.toFixed(1)} s (${(openOk / openSeconds).toFixed(0)} streams/s, ${OPEN_CONCURRENCY * CLIENTS} at once) |
| app CPU per stream opened | ${(openCpu / Math.max(1, openOk)).toFixed(1)} ms |
| one stream (request → \`trace\` event) p50 / p99 | ${ms(quantile(openMs, 0.5))} / ${ms(quantile(openMs, 0.99))} |
| app RSS: after warm-up → ${openOk} streams open (5 s later) | ${(rssBefore / 1024).toFixed(0)} → ${(rssOpen / 1024).toFixed(0)} MiB |
| **RSS growth per open stream** | **${perStream.toFixed(1)} KiB** |
${collectedOpen && collectedBefore ? `| V8 heap in use after a full garbage collection (heap snapshot), per stream | ${((collectedOpen.used - collectedBefore.used) / Math.max(1, openOk)).toFixed(1)} KiB |\n` : ''}| of which V8 heap in use / memory outside the heap (prom-client), per stream | ${((heapOpen.used - heapBefore.used) / Math.max(1, openOk)).toFixed(1)} / ${((heapOpen.external - heapBefore.external) / Math.max(1, openOk)).toFixed(1)} KiB (garbage not yet collected included) |
| client processes' RSS | ${clientRss.map((k) => `${(k / 1024).toFixed(0)} MiB`).join(', ')} |
| app RSS 5 s after every stream closed | ${(rssClosed / 1024).toFixed(0)} MiB |

| fixes for ${SECONDS} s through the API | at ${RATED}/s (rated) | at ${RATE}/s (overload) |
| --- | --- | --- |
${labels.map((l, i) => `| ${l} | ${d.rows[i]} | ${a.rows[i]} |`).join('\n')}

"Fix committed" is the position's \`recordedAt\` (\`now()\` in the inserting transaction, a little before its commit)
compared with the wall clock of the client process when the event's bytes arrived; both clocks are this machine's.
"Fix sent" adds the app's handling of the PUT (consent code, limits, heartbeat, insert) and any wait for it.

## Where the next limit is

- **The app process's CPU, for fixes through the API.** A fix is one statement (services/locate/owner-signals.ts
  \`savePosition\`: the IP's guessing limit, the request's limit, the position and the heartbeat together); what is
  left of a \`PUT\` is the handling of an HTTP request by Next.js and Hono (its answer is not gzipped: a few bytes,
  \`Cache-Control: no-store, no-transform\`). At ${RATE} fixes a second the app used
  ${core(viaApi.cpu.app, viaApi.seconds)} of a core (one JavaScript thread, the streams' events included); the
  \`PUT\`'s tail above (p99 of "fix answered" and of "fix sent") is requests waiting for that thread, on a machine
  whose two cores also run PostgreSQL, the stream clients and the fix poster. As that share nears a whole core the
  tail grows by seconds; more fixes a second than that need more processes.
- **Memory per stream.** A stream is answered by the Node server itself (server/api/live-node.ts,
  docs/decisions/0014-live-streams-on-the-node-server.md): a Node request, response and socket, one listener and
  one small object. At the size above one process holds far more streams than the open-files limit
  (\`ulimit -n\`, one socket per stream) lets it; that limit comes first.
- **Per-stream upkeep.** One timer for all the streams of a process: every 15 s a keep-alive comment to each (with
  ${STREAMS} streams, ${Math.round(STREAMS / 15)} writes a second), and every 30 s one query for the sessions of all of
  them, whether or not anyone moves.
- **The live broker** (docs/decisions/0019-live-broker.md). On PostgreSQL, the process that took the fixes sends one
  notice of ids every 20 ms at most, and every process's listener hears every notice; the streams that hear one
  read what it names in one statement on the live path's own pool. PostgreSQL serialises the notifying commits
  (bench/notify-report.md), so the notices per second, not the fixes, meet that lock; the Redis engine has no such
  lock and each process reads only the requests it holds.
- **More than one process**: processes behind the proxy, sticky-free (docs/deploy.md, "Live location streams").
`;
    writeFileSync(REPORT, report);
    if (SUMMARY)
      writeFileSync(
        SUMMARY,
        JSON.stringify({
          engine: BROKER,
          streams: openOk,
          ratedRate: RATED,
          ratedAnswerP99: quantile(rated.answerMs, 0.99),
          ratedSentP95: quantile(rated.sentMs, 0.95),
          ratedSentP99: quantile(rated.sentMs, 0.99),
          ratedGoal: d.goal,
          rate: RATE,
          fixesPerSecond: viaApi.accepted / viaApi.seconds,
          sentP50: quantile(viaApi.sentMs, 0.5),
          sentP99: quantile(viaApi.sentMs, 0.99),
          fanOutP50: quantile(viaApi.commitMs, 0.5),
          fanOutP99: quantile(viaApi.commitMs, 0.99),
          answerP99: quantile(viaApi.answerMs, 0.99),
          kibPerStream: perStream,
          commitsPerSecond: viaApi.commitsPerSecond,
          missing: viaApi.missing,
          doubled: viaApi.doubled,
          goal: a.goal,
        } satisfies EngineSummary),
      );
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
    console.log(report);
  } finally {
    for (const c of clients) if (c.exitCode === null) c.kill();
    server.stop();
    await redis?.stop();
  }
  process.exit(0);
}

/** Transactions committed in the app's database so far (`pg_stat_database`, PostgreSQL docs "The Cumulative Statistics System"). */
async function commitsOf(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    'select xact_commit as n from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0].n);
}

if (process.env.BENCH_LIVE_ROLE !== 'streams') await main();
