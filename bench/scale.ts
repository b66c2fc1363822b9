// `npm run bench:scale` (after `npm run build`): orders created and paid per second with one app process and with two,
// each time with one worker delivering the e-mails and SMS, on one PostgreSQL. A fixed number of
// clients each buy in a loop (order, then sandbox card payment) for a fixed time, spread round-robin over the apps.
// Writes bench/scale-report.md. Uses the same cluster as the scale-out test (e2e/cluster.ts).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, api, type Proc } from '../e2e/cluster';

const root = path.resolve(import.meta.dirname, '..');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 20) * 1000;

let n = 0;
/** Buys as fast as `CLIENTS` clients can for DURATION_MS, round-robin over `apps`; returns paid orders and failures. */
async function load(apps: Proc[]): Promise<{ paid: number; failed: number; seconds: number }> {
  let paid = 0;
  let failed = 0;
  const started = Date.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      let turn = client;
      while (Date.now() < deadline) {
        n += 1;
        const orderOn = apps[turn++ % apps.length];
        const payOn = apps[turn++ % apps.length];
        const order = await api(orderOn, 'POST', '/portal/order', {
          body: {
            email: `scale${n}.${started}@example.com`,
            phone: `+1415${String(5_550_000 + (n % 400_000)).padStart(7, '0')}`,
            requesterName: 'Anna (your sister)',
            terms: true,
            startNow: true,
          },
        });
        if (order.status !== 201) {
          failed += 1;
          continue;
        }
        const pay = await api(payOn, 'POST', `/portal/order/${order.body.obj.code}/sandboxPay`, {
          body: { cardNumber: '4242424242424242', expiry: '12/34', cvc: '123', zip: '10001' },
        });
        if (pay.status === 200) paid += 1;
        else failed += 1;
      }
    }),
  );
  return { paid, failed, seconds: (Date.now() - started) / 1000 };
}

async function run(appCount: number) {
  const cluster = new Cluster();
  await cluster.start();
  try {
    const apps = await Promise.all(
      Array.from({ length: appCount }, (_, i) => cluster.app(`app-${i}`, { LOG_LEVEL: 'warn' })),
    );
    await cluster.worker('worker');
    // Warm-up: compile the routes and fill the pools.
    for (const app of apps) for (let i = 0; i < 5; i += 1) await api(app, 'GET', '/portal/priceSetup');
    return await load(apps);
  } finally {
    await cluster.close();
  }
}

const one = await run(1);
const two = await run(2);
const rate = (r: { paid: number; seconds: number }) => r.paid / r.seconds;
const ratio = rate(two) / rate(one);
const report = `# Scale-out: orders paid per second, one vs two app processes

Measured by \`npm run bench:scale\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores,
${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}). Each run: a fresh PostgreSQL (embedded), one
worker (\`npm run worker\`) delivering over SMTP to a local sink, ${CLIENTS} clients each buying in a loop for
${DURATION_MS / 1000} s (\`POST /portal/order\` then \`POST /portal/order/{code}/sandboxPay\`, the order on one app
and the payment on the next, round-robin). Everything runs on this one machine, PostgreSQL and the load generator
included.

| app processes | orders paid | failed | seconds | paid per second |
| --- | --- | --- | --- | --- |
| 1 | ${one.paid} | ${one.failed} | ${one.seconds.toFixed(1)} | ${rate(one).toFixed(1)} |
| 2 | ${two.paid} | ${two.failed} | ${two.seconds.toFixed(1)} | ${rate(two).toFixed(1)} |

**Ratio two / one: ${ratio.toFixed(2)}.**${
  ratio < 1.1
    ? ' On this machine a second process adds no throughput: the cores are already busy, and the second process only adds its own overhead.'
    : ''
}

How to read it: a payment hashes a new account's temporary password with argon2id (about 19 MiB and tens of ms of
CPU), so the work is CPU-bound. On this ${os.cpus().length}-core machine the two app processes, the worker, PostgreSQL
and the load generator share the same cores, so a second process can only use what the first left idle; on separate
machines (the compose file's layout) each instance brings its own cores, and the shared state is in PostgreSQL only
(sessions, limits, the queue), so nothing else stops instances from adding up until the database is the bottleneck.
`;
writeFileSync(path.join(root, 'bench/scale-report.md'), report);
console.log(report);
process.exit(0);
