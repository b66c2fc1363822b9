import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';

// How the build may be served (README, "Accounts and security"): only through `npm start` (scripts/start.mjs), which
// sets the security headers on every response, with HSTS when the public origin is https.

/** Output and exit of a child process, collected. */
function collect(child: ChildProcess) {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

test('`next start` alone refuses to serve the build without its security headers', async () => {
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', '3297'], {
    env: { ...process.env, DATABASE_URL: '', EMBEDDED_PG_DIR: '/nonexistent/never-used' },
  });
  const run = collect(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await run.exited;
  clearTimeout(timer);
  expect(code).not.toBe(0);
  expect(run.output()).toContain('Start the production server with `npm start`');
});

test('an https origin gets Strict-Transport-Security on pages, the API, static files and 404s; http does not', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const port = 3298;
  // A free port of its own for the embedded database (serve.mjs picks one when EMBEDDED_PG_PORT is unset).
  const { EMBEDDED_PG_PORT: _unused, ...inherited } = process.env;
  const child = spawn(process.execPath, ['e2e/serve.mjs'], {
    env: {
      ...inherited,
      PORT: String(port),
      APP_ORIGIN: 'https://chamspy.example',
      LOG_LEVEL: 'warn',
      PWNED_PASSWORDS_URL: 'off',
    },
  });
  const run = collect(child);
  try {
    const base = `http://localhost:${port}`;
    await expect
      .poll(async () => (await request.get(`${base}/api_f/v1/health`).catch(() => undefined))?.status(), {
        timeout: 90_000,
        intervals: [500],
      })
      .toBe(200);
    for (const path of ['/', '/es/', '/api_f/v1/health', '/icons.svg', '/no-such-page/', '/api_f/v1/nothing']) {
      const response = await request.get(`${base}${path}`, { maxRedirects: 0 });
      expect(response.headers()['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
    }
  } finally {
    child.kill('SIGTERM');
    await run.exited;
  }
  // The suite's own server has an http origin: no HSTS there (a browser would ignore it, and it would pin localhost).
  const plain = await request.get('/');
  expect(plain.headers()['strict-transport-security']).toBeUndefined();
  expect(plain.headers()['x-frame-options']).toBe('DENY');
});
