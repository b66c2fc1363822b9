// The server the benchmarks measure: `npm start` (a production build must exist) on a throwaway embedded PostgreSQL,
// started through e2e/serve.mjs on its own ports so a bench never touches .data/ or a running test server; and what
// every report reads of the machine and of its samples (load averages, quantiles).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Starts the app on `port` with PostgreSQL on `pgPort` and `env` added (SMS caps and order limits raised for load),
 * and resolves once `GET /api_f/v1/health` answers (2 minutes at most). `stop()` ends it and its database; `pid` is
 * the launcher (e2e/serve.mjs), the app process (`scripts/start.mjs`) is its child.
 */
export async function startBenchServer(port: number, pgPort: number, env: Record<string, string> = {}) {
  const origin = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['e2e/serve.mjs'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), APP_ORIGIN: origin, EMBEDDED_PG_PORT: String(pgPort), ...env },
  });
  const stop = () => child.kill('SIGTERM');
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/api_f/v1/health`)).ok) break;
    } catch {}
    if (i > 240) {
      stop();
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { origin, stop, pid: child.pid! };
}

/**
 * The settings that lift the product's per-number, per-buyer and per-IP caps (docs/rules.md#limits) for a bench that
 * places thousands of orders from one address; the caps themselves are tested in tests/, not measured here.
 */
export const UNCAPPED = {
  SMS_MAX_PER_TARGET_PER_DAY: '100000',
  SMS_MAX_PER_BUYER_PER_DAY: '100000',
  SMS_GLOBAL_DAILY_CAP: '10000000',
  ORDERS_PER_IP_PER_HOUR: '10000000',
  LIVE_STREAMS_PER_SESSION: '1000000',
  LIVE_STREAMS_PER_ACCOUNT: '1000000',
  LIVE_STREAMS_PER_ADDRESS: '1000000',
} as const;

/** The machine's load averages over 1, 5 and 15 minutes, as a report prints them ("0.4, 0.7, 0.9"). */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');
}

/**
 * The `q` quantile (0–1) of `xs` by the nearest-rank method (the smallest value with at least `q` of the samples at
 * or below it), NaN for no samples: the p50, p95 and p99 of every report.
 */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}
