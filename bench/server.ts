// The server the benchmarks measure: `npm start` (a production build must exist) on a throwaway embedded PostgreSQL,
// started through e2e/serve.mjs on its own ports so a bench never touches .data/ or a running test server.
import { spawn } from 'node:child_process';
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
