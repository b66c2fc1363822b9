// `npm run bench:latency`: message and position latency on a production build (`npm run build` first), written to
// bench/latency-report.md. Runs the server on a throwaway embedded PostgreSQL and reads it directly.
//  1. order.paid → consent SMS handed to the provider: `outbound_messages.sent_at - orders.paid_at` over N orders one
//     after another, then over a burst of orders started 20 a second.
//  2. position PUT → the buyer's map sees it, live: the buyer holds the Server-Sent Events stream
//     (`GET /gpsTrace/phoneLocation/{id}/live`) open; the owner PUTs a fix (each > 100 m from the last, at a random
//     moment 0.3–1.5 s after the previous one); the time from sending the PUT to the `position` event arriving at the
//     buyer's stream. Once with owner and buyer on the same app process, once across two app processes on the same
//     PostgreSQL (the owner's PUT to one, the buyer's stream from the other: LISTEN/NOTIFY carries it over).
//  3. The fallback where SSE fails: a simulated map polls GET /gpsTrace every 3 s from a random phase; the time from
//     the PUT to the first poll that returns the position. Also the API's own delay.
// Targets: SMS p99 ≤ 2 s (≤ 5 s in the burst); live median ≤ 250 ms and p95 ≤ 750 ms; polling p99 ≤ 3 s.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startBenchServer, UNCAPPED, loadAverages, quantile } from './server';
import { openSse, type SseStream } from './sse-client';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3330;
/** The second app process of the cross-process measure, on the same database. */
const PORT_2 = 3331;
const PG_PORT = 55433;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
/** Orders of the burst, started BURST_RATE a second. */
const BURST = Number(process.env.BENCH_BURST ?? 100);
const BURST_RATE = 20;
/** Fixes timed on the live stream (each setting: same process, across processes). */
const LIVE_FIXES = Number(process.env.BENCH_LIVE_FIXES ?? 40);
/** Fixes timed with the polling fallback. */
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 20);
const MAP_POLL_MS = 3000;
const base = `http://localhost:${PORT}/api_f/v1`;
const headers = { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();

async function post(url: string, body: Record<string, string>, method = 'POST', cookie?: string) {
  const res = await fetch(base + url, {
    method,
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
    body: form(body),
  });
  return { res, json: (await res.json()) as { obj: Record<string, unknown> } };
}

async function buy(i: number) {
  const phone = `+1415555${String(i).padStart(4, '0')}`;
  const order = await post('/portal/order', {
    email: `bench${i}@example.com`,
    phone,
    requesterName: 'Anna (your sister)',
    terms: 'true',
    startNow: 'true',
  });
  const code = order.json.obj.code as string;
  const pay = await post(`/portal/order/${code}/sandboxPay`, {
    cardNumber: '4242424242424242',
    expiry: '12/34',
    cvc: '123',
    zip: '1',
  });
  const cookie = /token=[^;]+/.exec(pay.res.headers.get('set-cookie') ?? '')![0];
  return { code, cookie, phone };
}

/**
 * Starts a second app process (`scripts/start.mjs` on the build) on `port`, on the database at `databaseUrl`, without
 * the job workers (the first process runs them), and resolves once its health check answers.
 */
async function startSecondApp(port: number, databaseUrl: string) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      APP_ORIGIN: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl,
      JOBS_IN_PROCESS: 'false',
    },
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/api_f/v1/health`)).ok) break;
    } catch {}
    if (i > 240 || child.exitCode !== null) {
      child.kill();
      throw new Error('second app did not start');
    }
    await sleep(500);
  }
  return { origin: `http://localhost:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * Waits (up to 60 s) until the consent SMS of every order of `codes` is handed to the provider, then returns each
 * one's delay from the order's payment (ms): `outbound_messages.sent_at - orders.paid_at`.
 */
async function smsDelays(db: pg.Client, codes: string[]): Promise<number[]> {
  for (let i = 0; i < 120; i++) {
    const { rows } = await db.query(
      `select count(*)::int as n from outbound_messages m join location_requests r on r.id = m.location_request_id
       join orders o on o.id = r.order_id where o.code = any($1) and m.sent_at is not null`,
      [codes],
    );
    if (rows[0].n === codes.length) break;
    await sleep(500);
  }
  const { rows } = await db.query(
    `select extract(epoch from (m.sent_at - o.paid_at)) * 1000 as ms from outbound_messages m
     join location_requests r on r.id = m.location_request_id join orders o on o.id = r.order_id
     where o.code = any($1) and m.sent_at is not null`,
    [codes],
  );
  return rows.map((r) => Number(r.ms));
}

/** The request id and consent code of a bought order. */
async function requestOf(db: pg.Client, code: string) {
  const { rows } = await db.query(
    `select r.id, m.body from location_requests r join orders o on o.id = r.order_id
     join outbound_messages m on m.location_request_id = r.id where o.code = $1`,
    [code],
  );
  return { requestId: rows[0].id as string, consent: /\?c=([A-Za-z0-9_-]+)/.exec(rows[0].body)![1] };
}

/**
 * Times LIVE_FIXES fixes from the owner's PUT (sent to `ownerOrigin`) to the `position` event at the buyer's stream
 * (held open on `buyerOrigin`), over the shares of `shares`, round-robin. Each fix moves 0.002° of latitude (≈ 222 m)
 * and is sent 0.3–1.5 s after the previous one. Returns the delays (ms) and the fixes that never arrived (10 s).
 */
async function timeLive(
  shares: { requestId: string; consent: string; cookie: string }[],
  ownerOrigin: string,
  buyerOrigin: string,
  firstLatitude: number,
) {
  const waiting = new Map<string, (at: number) => void>();
  const streams: SseStream[] = [];
  for (const share of shares) {
    // Timing starts once the stream has sent its `trace` (it is then subscribed).
    let traced = () => {};
    const trace = new Promise<void>((resolve) => (traced = resolve));
    streams.push(
      await openSse(buyerOrigin, share.requestId, share.cookie, (e) => {
        if (e.event === 'trace') traced();
        if (e.event !== 'position') return;
        const key = (JSON.parse(e.data) as { latitude: number }).latitude.toFixed(4);
        waiting.get(key)?.(performance.now());
      }),
    );
    await trace;
  }
  const delays: number[] = [];
  let lost = 0;
  for (let i = 0; i < LIVE_FIXES; i++) {
    const share = shares[i % shares.length];
    const latitude = firstLatitude + (i + 1) * 0.002;
    await sleep(300 + Math.random() * 1200);
    const arrived = new Promise<number | null>((resolve) => {
      waiting.set(latitude.toFixed(4), resolve);
      setTimeout(() => resolve(null), 10_000);
    });
    const start = performance.now();
    const res = await fetch(`${ownerOrigin}/api_f/v1/spyContent/phoneLocation/${share.consent}`, {
      method: 'PUT',
      headers,
      body: form({ action: 'position', latitude: String(latitude), longitude: '-3.7', accuracy: '9' }),
    });
    await res.arrayBuffer();
    const at = await arrived;
    waiting.delete(latitude.toFixed(4));
    if (res.status !== 200 || at === null) lost += 1;
    else delays.push(at - start);
  }
  for (const s of streams) s.close();
  return { delays, lost };
}

const loadAtStart = loadAverages();
const server = await startBenchServer(PORT, PG_PORT, UNCAPPED);
let second: Awaited<ReturnType<typeof startSecondApp>> | null = null;
try {
  const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${PG_PORT}/app`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();

  // 1. order.paid → SMS handed to the provider.
  // Orders one after another, as buyers arrive; each payment's SMS is timed on its own.
  const bought: Awaited<ReturnType<typeof buy>>[] = [];
  for (let i = 0; i < ORDERS; i++) bought.push(await buy(i));
  const smsMs = await smsDelays(
    db,
    bought.map((b) => b.code),
  );
  // The same at BURST_RATE orders a second (a burst from an ad), BURST orders started on a timer, not one after another.
  const burst = await Promise.all(
    Array.from({ length: BURST }, (_, k) => sleep((k * 1000) / BURST_RATE).then(() => buy(ORDERS + k))),
  );
  const burstMs = await smsDelays(
    db,
    burst.map((b) => b.code),
  );

  // 2. position PUT → the `position` event at the buyer's open stream; 4 shares, on one process and across two.
  const shared: { requestId: string; consent: string; cookie: string }[] = [];
  for (const b of bought.slice(0, 8)) {
    const { requestId, consent } = await requestOf(db, b.code);
    await post(
      `/spyContent/phoneLocation/${consent}`,
      { action: 'share', minutes: '15', latitude: '40.4', longitude: '-3.7', accuracy: '12' },
      'PUT',
    );
    shared.push({ requestId, consent, cookie: b.cookie });
  }
  const sameProcess = await timeLive(shared.slice(0, 4), server.origin, server.origin, 40.4);
  second = await startSecondApp(PORT_2, databaseUrl);
  const crossProcess = await timeLive(shared.slice(4, 8), server.origin, second.origin, 41.4);

  // 3. position PUT → seen by a map polling every 3 s (the fallback where SSE fails).
  const mapMs: number[] = [];
  const apiMs: number[] = [];
  for (const b of bought.slice(8, 8 + POSITIONS)) {
    const { requestId, consent } = await requestOf(db, b.code);
    await post(
      `/spyContent/phoneLocation/${consent}`,
      { action: 'share', minutes: '15', latitude: '48.8584', longitude: '2.2945', accuracy: '12' },
      'PUT',
    );
    const seen = async () => {
      const res = await fetch(`${base}/gpsTrace/phoneLocation/${requestId}`, { headers: { cookie: b.cookie } });
      const json = (await res.json()) as { obj: { positions: { source: string; latitude: number }[] } };
      return json.obj.positions.some((p) => p.source === 'gps' && p.latitude === 40.4);
    };
    // The map's poll phase relative to the PUT is random.
    const phase = Math.random() * MAP_POLL_MS;
    const start = performance.now();
    await post(
      `/spyContent/phoneLocation/${consent}`,
      { action: 'position', latitude: '40.4', longitude: '-3.7', accuracy: '9' },
      'PUT',
    );
    const putDone = performance.now();
    apiMs.push(putDone - start);
    let at = start + phase;
    for (;;) {
      await sleep(Math.max(0, at - performance.now()));
      if (await seen()) break;
      at += MAP_POLL_MS;
    }
    mapMs.push(performance.now() - start);
  }
  await db.end();

  const fmt = (xs: number[]) =>
    `${(quantile(xs, 0.5) / 1000).toFixed(2)} s | ${(quantile(xs, 0.99) / 1000).toFixed(2)} s | ${(Math.max(...xs) / 1000).toFixed(2)} s`;
  const liveRow = (what: string, r: { delays: number[]; lost: number }) => {
    const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(r.delays, q));
    const met = r.lost === 0 && p50 <= 250 && p95 <= 750 ? 'met' : 'NOT met';
    return `| ${what} | ${r.delays.length} | ${r.lost} | ${p50.toFixed(0)} ms | ${p95.toFixed(0)} ms | ${p99.toFixed(0)} ms | ${Math.max(...r.delays).toFixed(0)} ms | ${met} |`;
  };
  const report = [
    '# Latency',
    '',
    `Measured ${new Date().toISOString()} by \`npm run bench:latency\` on the production build, embedded PostgreSQL,`,
    `on this 2-core machine (shared: load average ${loadAtStart} when the run began). A message is picked up when its`,
    'transaction commits (the outbox announces it: server/jobs/outbox-listener.ts), then delivered by pg-boss.',
    '',
    '## Live location: fix → buyer',
    '',
    'The buyer holds the Server-Sent Events stream (`GET /api_f/v1/gpsTrace/phoneLocation/{id}/live`) open; the owner',
    `PUTs ${LIVE_FIXES} fixes over 4 shares, each > 100 m from the last (0.002° of latitude), sent at a random moment`,
    '0.3–1.5 s after the previous one. Measured: from sending the PUT to the `position` event arriving at the stream.',
    'Goal: median ≤ 250 ms, p95 ≤ 750 ms. "Lost": no event within 10 s, or the PUT refused.',
    '',
    '| setting | samples | lost | median | p95 | p99 | max | goal |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    liveRow('owner and buyer on one app process', sameProcess),
    liveRow('owner on one app process, buyer streaming from another (same PostgreSQL)', crossProcess),
    '',
    '## Delivery and the polling fallback',
    '',
    '| measure | samples | p50 | p99 | max | target (p99) |',
    '| --- | --- | --- | --- | --- | --- |',
    `| order.paid → consent SMS handed to the provider (outbox provider), orders one after another | ${smsMs.length} | ${fmt(smsMs)} | ≤ 2 s |`,
    `| the same, ${BURST_RATE} orders a second (${BURST} orders) | ${burstMs.length} of ${BURST} | ${fmt(burstMs)} | ≤ 5 s |`,
    `| position PUT → buyer's map shows it, polling fallback (every ${MAP_POLL_MS / 1000} s, random phase) | ${mapMs.length} | ${fmt(mapMs)} | ≤ 3 s |`,
    `| position PUT answered (stored) | ${apiMs.length} | ${fmt(apiMs)} | — |`,
    '',
    'The polling figure is bounded below by the interval: a position is visible at the next poll, so it cannot beat',
    '3 s in the worst case. It is what a buyer gets where the stream cannot be held (some proxies, old in-app browsers).',
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'bench', 'latency-report.md'), report);
  console.log(report);
} finally {
  second?.stop();
  server.stop();
}
