// `npm run bench:orders`: latency of `POST /api_f/v1/portal/order` under 20 concurrent clients (autocannon), on a
// production build (`npm run build` first) with a throwaway embedded PostgreSQL, written to bench/orders-report.md.
// Each request is a new buyer and number, as the pay step sends it (form body, idempotency key).
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBenchServer, UNCAPPED } from './server';

const root = path.resolve(import.meta.dirname, '..');
const PORT = 3331;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 20);
const base = `http://localhost:${PORT}/api_f/v1`;

let n = 0;
/** A new buyer and a new valid US number per request. */
function orderBody(): string {
  n += 1;
  return new URLSearchParams({
    email: `load${n}.${randomBytes(3).toString('hex')}@example.com`,
    phone: `+1415555${String(n % 10000).padStart(4, '0')}`,
    requesterName: 'Anna (your sister)',
    terms: 'true',
    method: n % 2 ? 'card' : 'wallet',
    idempotencyKey: randomBytes(16).toString('hex'),
  }).toString();
}

const server = await startBenchServer(PORT, 55434, UNCAPPED);
try {
  // Warm-up: compile routes and fill the connection pool.
  for (let i = 0; i < 10; i++) {
    await fetch(`${base}/portal/order`, {
      method: 'POST',
      headers: { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' },
      body: orderBody(),
    });
  }
  const result = await autocannon({
    url: `${base}/portal/order`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    method: 'POST',
    headers: { website_type: '7', 'content-type': 'application/x-www-form-urlencoded' },
    requests: [{ setupRequest: (req) => ({ ...req, body: orderBody() }) }],
  });
  const l = result.latency;
  const report = `# POST /portal/order under load

\`npm run bench:orders\` (bench/orders.ts), ${new Date().toISOString().slice(0, 10)}: autocannon, ${CONNECTIONS}
concurrent connections for ${DURATION_S} s against \`npm start\` (production build) with the embedded PostgreSQL, on
this machine (${os.cpus().length} cores, Node ${process.version}). Every request is a new buyer and number (the SMS
guards, the price lookup, the insert and the sandbox checkout URL all run), half card and half wallet.

| measure | value |
| --- | --- |
| requests | ${result.requests.total} |
| throughput | ${result.requests.average.toFixed(0)} req/s |
| latency p50 | ${l.p50} ms |
| latency p95 (interpolated from p90/p97.5) | ${(l.p90 + ((l.p97_5 - l.p90) * (95 - 90)) / (97.5 - 90)).toFixed(0)} ms |
| latency p99 | ${l.p99} ms |
| latency max | ${l.max} ms |
| non-2xx answers | ${result.non2xx} |
| errors / timeouts | ${result.errors} / ${result.timeouts} |

autocannon reports p90 and p97.5 rather than p95; the p95 line interpolates between them.
`;
  writeFileSync(path.join(root, 'bench/orders-report.md'), report);
  console.log(report);
} finally {
  server.stop();
}
