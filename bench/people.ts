// `npm run bench:people`: the people map of "My locations" in Chromium (docs/features.md "The people map"). One buyer,
// five requests shared by their owners; the buyer's page holds the people map (one stream for all). Each owner's fix is
// PUT as the owner's page sends it, at random moments, to one person after another; the time from the PUT sent to
// that person's marker moving on the buyer's page (a MutationObserver on the marker's `data-at`, in the page) is one
// sample. Writes bench/people-report.md. Needs a production build (`npm run build`) and Chromium.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium';
import { UNCAPPED, loadAverages, startBenchServer, quantile } from './server';

const PORT = 3350;
const PG_PORT = 55453;
const PEOPLE = 5;
/** Fixes timed, spread over the people in turn. */
const FIXES = Number(process.env.BENCH_PEOPLE_FIXES ?? 60);
/** Fixes timed on the single map of one of them, for comparison. */
const SINGLE_FIXES = Number(process.env.BENCH_PEOPLE_SINGLE_FIXES ?? 30);
const headers = { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' };
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A call of the API as a browser's form sends it; the answer's status and envelope. */
async function call(origin: string, url: string, body: Record<string, string>, method = 'POST', cookie?: string) {
  const res = await fetch(`${origin}/api_f/v1${url}`, {
    method,
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
    body: form(body),
  });
  return { res, json: (await res.json()) as { obj: Record<string, unknown> } };
}

/** The consent code of request `id`, from its SMS in the bench server's outbox. */
async function consentCode(db: pg.Client, id: string): Promise<string> {
  const { rows } = await db.query<{ body: string }>(
    'select body from outbound_messages where location_request_id = $1 order by created_at limit 1',
    [id],
  );
  return /\?c=([A-Za-z0-9_-]+)/.exec(rows[0].body)![1];
}

const loadAtStart = loadAverages();
const server = await startBenchServer(PORT, PG_PORT, UNCAPPED);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  const db = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${PG_PORT}/app` });
  await db.connect();
  const order = await call(server.origin, '/portal/order', {
    email: `people.${Date.now()}@example.com`,
    phone: '+17075550181',
    requesterName: 'Anna (your sister)',
    terms: 'true',
    startNow: 'true',
  });
  const pay = await call(server.origin, `/portal/order/${String(order.json.obj.code)}/sandboxPay`, {
    cardNumber: '4242424242424242',
    expiry: '12/34',
    cvc: '123',
    zip: '1',
  });
  const token = /token=([^;]+)/.exec(pay.res.headers.get('set-cookie') ?? '')![1];
  const cookie = `token=${token}`;
  const { rows: first } = await db.query<{ id: string }>(
    'select r.id from location_requests r join orders o on o.id = r.order_id where o.code = $1',
    [order.json.obj.code],
  );
  const ids = [first[0].id];
  for (let i = 2; i <= PEOPLE; i++) {
    const made = await call(
      server.origin,
      '/spyContent/phoneLocation',
      {
        phone: `+1707555018${i}`,
        requesterName: 'Anna (your sister)',
      },
      'POST',
      cookie,
    );
    ids.push(String(made.json.obj.id));
  }
  const codes: string[] = [];
  for (const [i, id] of ids.entries()) {
    const code = await consentCode(db, id);
    codes.push(code);
    const shared = await call(
      server.origin,
      `/spyContent/phoneLocation/${code}`,
      {
        action: 'share',
        minutes: '60',
        latitude: String(40.4 + i * 0.01),
        longitude: '-3.7',
        accuracy: '12',
      },
      'PUT',
    );
    if (shared.res.status !== 200) throw new Error(`share ${i}: ${shared.res.status}`);
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'token', value: token, url: server.origin }]);
  const page = await context.newPage();
  let streams = 0;
  page.on('request', (r) => {
    if (/\/live\/?$/.test(r.url())) streams += 1;
  });
  await page.goto(`${server.origin}/dashboard/locations/`);
  await page
    .locator('[data-testid="person-marker"]')
    .nth(PEOPLE - 1)
    .waitFor();
  // In the page: each marker's new position with the wall-clock time it was drawn. A string, not a function: tsx
  // would wrap a function's inner functions in a helper the page does not have.
  await page.evaluate(`(() => {
    const seen = [];
    window.__moves = seen;
    const known = new Set();
    const look = () => {
      for (const el of document.querySelectorAll('[data-testid="person-marker"]')) {
        const at = el.dataset.at ?? '';
        if (!known.has(at)) {
          known.add(at);
          seen.push({ at, t: Date.now() });
        }
      }
    };
    look();
    // A marker's label may be updated in place or drawn anew: any change under the map is looked at.
    new MutationObserver(look).observe(document.body, {
      attributes: true,
      attributeFilter: ['data-at'],
      childList: true,
      subtree: true,
    });
  })()`);

  /**
   * Times `count` fixes, 0.2–0.8 s apart: `target(i)` gives the fix's request index and latitude, `drawnAs(lat)` the
   * text the page shows once it is drawn (as the MutationObserver above records it). Returns the delays (ms) and the
   * fixes lost (not drawn within 5 s, or refused).
   */
  const time = async (
    count: number,
    target: (i: number) => { who: number; latitude: number },
    drawnAs: (lat: number) => string,
  ) => {
    const delays: number[] = [];
    let lost = 0;
    for (let i = 0; i < count; i++) {
      const { who, latitude } = target(i);
      const at = drawnAs(latitude);
      await sleep(200 + Math.random() * 600);
      const sent = Date.now();
      const res = await call(
        server.origin,
        `/spyContent/phoneLocation/${codes[who]}`,
        {
          action: 'position',
          latitude: String(latitude),
          longitude: '-3.7',
          accuracy: '9',
        },
        'PUT',
      );
      let drawn: number | null = null;
      for (let k = 0; k < 100 && drawn === null; k++) {
        const moves = await page.evaluate(
          () => (window as unknown as { __moves: { at: string; t: number }[] }).__moves,
        );
        drawn = moves.find((m) => m.at === at)?.t ?? null;
        if (drawn === null) await sleep(50);
      }
      if (res.res.status !== 200 || drawn === null) lost += 1;
      else delays.push(drawn - sent);
    }
    return { delays, lost };
  };
  const people = await time(
    FIXES,
    (i) => ({ who: i % PEOPLE, latitude: 40.4 + (i % PEOPLE) * 0.01 + (Math.floor(i / PEOPLE) + 1) * 0.0002 }),
    (lat) => `${lat.toFixed(5)},-3.70000`,
  );

  // The streams the people map opened, before the single map opens its own.
  const peopleStreams = streams;
  // The single map of the first person, the same way: its coordinates line drawn anew.
  await page.goto(`${server.origin}/map/?id=${ids[0]}`);
  await page.getByTestId('coordinates').waitFor();
  await page.evaluate(`(() => {
    const seen = [];
    window.__moves = seen;
    let last = '';
    const look = () => {
      const text = document.querySelector('[data-testid="coordinates"]')?.textContent ?? '';
      if (text !== last) {
        last = text;
        seen.push({ at: text, t: Date.now() });
      }
    };
    look();
    new MutationObserver(look).observe(document.body, { characterData: true, childList: true, subtree: true });
  })()`);
  const single = await time(
    SINGLE_FIXES,
    (i) => ({ who: 0, latitude: 40.5 + (i + 1) * 0.0002 }),
    (lat) => `${lat.toFixed(5)}, -3.70000`,
  );
  await db.end();

  const cpu = os.cpus();
  const ms = (v: number) => `${Math.round(v)} ms`;
  const row = (what: string, r: { delays: number[]; lost: number }) =>
    `| ${what} | ${r.delays.length} | ${r.lost} | ${ms(quantile(r.delays, 0.5))} | ${ms(quantile(r.delays, 0.95))} | ${ms(Math.max(...r.delays))} | median ≤ 250 ms: ${quantile(r.delays, 0.5) <= 250 ? 'met' : 'not met'}; p95 ≤ 250 ms: ${quantile(r.delays, 0.95) <= 250 ? 'met' : 'not met'} |`;
  const report = [
    '# The people map: fix → marker in Chromium',
    '',
    `Measured by \`npm run bench:people\` (bench/people.ts) on ${new Date().toISOString().slice(0, 10)}: \`npm start\``,
    `(production build, embedded PostgreSQL, the live broker's PostgreSQL engine) on this machine (${cpu.length} cores,`,
    `${cpu[0]?.model.trim()}), load averages ${loadAtStart} at the start; Chromium ${browser.version()} at 1280 px.`,
    '',
    `One buyer with ${PEOPLE} requests, each shared by its owner; the buyer's "My locations" holds the people map`,
    `(the page opened ${peopleStreams} event stream${peopleStreams === 1 ? '' : 's'}). ${FIXES} fixes PUT as the owner's page sends them, 0.2–0.8 s apart,`,
    `to each person in turn; a sample is the time from the PUT sent to that marker drawn at its new place in the page`,
    '(wall clock of the same machine). Then the same on the single map of the first person, its coordinates line drawn',
    'anew. "Lost": not drawn within 5 s, or the PUT refused.',
    '',
    '| map | samples | lost | median | p95 | max | goal |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    row(`people map (${PEOPLE} people, one stream)`, people),
    row('single map', single),
    '',
  ].join('\n');
  writeFileSync(path.join(import.meta.dirname, 'people-report.md'), report);
  console.log(report);
} finally {
  await browser.close();
  server.stop();
}
