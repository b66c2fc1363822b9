import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type APIRequestContext } from '@playwright/test';

// Every way of serving the build sets the security headers (Next's `headers()` in next.config.ts,
// docs/decisions/0004-where-security-headers-are-set.md): here `next start` alone, the suite's own server being
// `npm start` (e2e/site.spec.ts). HSTS only on responses to requests that came over https (X-Forwarded-Proto).

/** Output and exit of a child process, collected. */
function collect(child: ChildProcess) {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

/** Starts e2e/serve.mjs on `port` with `env` and resolves once its health check answers 200. */
async function serve(request: APIRequestContext, port: number, env: Record<string, string>) {
  // A free port of its own for the embedded database (serve.mjs picks one when EMBEDDED_PG_PORT is unset).
  const { EMBEDDED_PG_PORT: _unused, ...inherited } = process.env;
  const child = spawn(process.execPath, ['e2e/serve.mjs'], {
    env: { ...inherited, PORT: String(port), LOG_LEVEL: 'warn', PWNED_PASSWORDS_URL: 'off', ...env },
  });
  const run = collect(child);
  const base = `http://localhost:${port}`;
  await expect
    .poll(async () => (await request.get(`${base}/api_f/v1/health`).catch(() => undefined))?.status(), {
      timeout: 90_000,
      intervals: [500],
    })
    .toBe(200);
  return {
    base,
    output: run.output,
    stop: async () => {
      child.kill('SIGTERM');
      await run.exited;
    },
  };
}

const PATHS = ['/', '/es/', '/api_f/v1/health', '/icons.svg', '/no-such-page/', '/api_f/v1/nothing'];

test('`next start` alone serves every kind of response with the security headers, HSTS over https only', async ({
  request,
}) => {
  test.setTimeout(150_000);
  const server = await serve(request, 3297, { SERVE_WITH: 'next-start', APP_ORIGIN: 'https://chamspy.example' });
  try {
    const home = await request.get(`${server.base}/es/`);
    const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await home.text())![1];
    for (const path of [...PATHS, script]) {
      const plain = await request.get(`${server.base}${path}`, { maxRedirects: 0 });
      expect(plain.headers()['x-frame-options'], path).toBe('DENY');
      expect(plain.headers()['x-content-type-options'], path).toBe('nosniff');
      expect(plain.headers()['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(plain.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(plain.headers()['strict-transport-security'], path).toBeUndefined();
      const tls = await request.get(`${server.base}${path}`, {
        maxRedirects: 0,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(tls.headers()['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
      expect(tls.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
    }
    // A local build is Next's usual output (the container's is standalone): nothing to warn about.
    expect(server.output()).not.toContain('does not work with "output: standalone"');
  } finally {
    await server.stop();
  }
});

test('`npm start` on a fresh build prints its start-up summary and no framework warning', async ({ request }) => {
  test.setTimeout(150_000);
  const server = await serve(request, 3298, {});
  try {
    expect((await request.get(`${server.base}/api_f/v1/health/ready`)).status()).toBe(200);
    expect(server.output()).toContain('links use');
    expect(server.output()).not.toContain('does not work with "output: standalone"');
  } finally {
    await server.stop();
  }
});

test('`npm start` sends HSTS on requests that came over https and none over http', async ({ request }) => {
  for (const path of PATHS) {
    const tls = await request.get(path, { maxRedirects: 0, headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers()['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    const plain = await request.get(path, { maxRedirects: 0 });
    // A browser ignores HSTS over http (RFC 6797, section 8.1).
    expect(plain.headers()['strict-transport-security'], path).toBeUndefined();
    expect(plain.headers()['x-frame-options'], path).toBe('DENY');
  }
});
