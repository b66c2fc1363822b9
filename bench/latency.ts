// `npm run bench:latency`: message and position latency on a production build (`npm run build` first), written to
// bench/latency-report.md. Runs the server on a throwaway embedded PostgreSQL and reads it directly.
//  1. order.paid → consent SMS handed to the provider: `outbound_messages.sent_at - orders.paid_at` over N orders.
//  2. position PUT → the buyer's map sees it: a simulated map polls GET /gpsTrace every 3 s (as the page does) from a
//     random phase; the time from the PUT to the first poll that returns the position. Also the API's own delay.
// Targets: p99 ≤ 2 s and ≤ 3 s.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startBenchServer } from './server';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3330;
const PG_PORT = 55433;
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 40);
const MAP_POLL_MS = 3000;
const base = `http://localhost:${PORT}/api_f/v1`;
const headers = { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
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

const server = await startBenchServer(PORT, PG_PORT, {
  SMS_MAX_PER_TARGET_PER_DAY: '100000',
  SMS_MAX_PER_BUYER_PER_DAY: '100000',
  SMS_GLOBAL_DAILY_CAP: '1000000',
  ORDERS_PER_IP_PER_HOUR: '100000',
});
try {
  const db = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${PG_PORT}/app` });
  await db.connect();

  // 1. order.paid → SMS handed to the provider.
  // Orders one after another, as buyers arrive; each payment's SMS is timed on its own.
  const bought: Awaited<ReturnType<typeof buy>>[] = [];
  for (let i = 0; i < ORDERS; i++) bought.push(await buy(i));
  const codes = bought.map((b) => b.code);
  for (let i = 0; i < 60; i++) {
    const { rows } = await db.query(
      `select count(*)::int as n from outbound_messages m join location_requests r on r.id = m.location_request_id
       join orders o on o.id = r.order_id where o.code = any($1) and m.sent_at is not null`,
      [codes],
    );
    if (rows[0].n === ORDERS) break;
    await sleep(500);
  }
  const { rows: smsRows } = await db.query(
    `select extract(epoch from (m.sent_at - o.paid_at)) * 1000 as ms from outbound_messages m
     join location_requests r on r.id = m.location_request_id join orders o on o.id = r.order_id
     where o.code = any($1) and m.sent_at is not null`,
    [codes],
  );
  const smsMs = smsRows.map((r) => Number(r.ms));

  // 2. position PUT → seen by a map polling every 3 s.
  const mapMs: number[] = [];
  const apiMs: number[] = [];
  for (const b of bought.slice(0, POSITIONS)) {
    const { rows } = await db.query(
      `select r.id, m.body from location_requests r join orders o on o.id = r.order_id
       join outbound_messages m on m.location_request_id = r.id where o.code = $1`,
      [b.code],
    );
    const requestId = rows[0].id as string;
    const consent = /\?c=([A-Za-z0-9_-]+)/.exec(rows[0].body)![1];
    await post(
      `/spyContent/phoneLocation/${consent}`,
      { action: 'share', minutes: '15', latitude: '48.8584', longitude: '2.2945', accuracy: '12' },
      'PUT',
    );
    const seen = async () => {
      const res = await fetch(`${base}/gpsTrace/phoneLocation/${requestId}`, { headers: { cookie: b.cookie } });
      const json = (await res.json()) as { obj: { positions: { source: string }[] } };
      return json.obj.positions.some((p) => p.source === 'gps');
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
  const report = [
    '# Latency',
    '',
    `Measured ${new Date().toISOString()} by \`npm run bench:latency\` on the production build, embedded PostgreSQL,`,
    'pg-boss polling every 0.5 s, on this 2-core machine.',
    '',
    '| measure | samples | p50 | p99 | max | target (p99) |',
    '| --- | --- | --- | --- | --- | --- |',
    `| order.paid → consent SMS handed to the provider (outbox provider) | ${smsMs.length} | ${fmt(smsMs)} | ≤ 2 s |`,
    `| position PUT → buyer's map shows it (map polls every ${MAP_POLL_MS / 1000} s, random phase) | ${mapMs.length} | ${fmt(mapMs)} | ≤ 3 s |`,
    `| position PUT answered (stored) | ${apiMs.length} | ${fmt(apiMs)} | — |`,
    '',
    'The map figure is bounded below by the polling interval: a position is visible at the next poll, so it cannot',
    'beat 3 s in the worst case; Server-Sent Events from PostgreSQL LISTEN/NOTIFY would remove that wait.',
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'bench', 'latency-report.md'), report);
  console.log(report);
} finally {
  server.stop();
}
