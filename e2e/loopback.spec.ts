import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { E2E_PG_PORT } from './db';

// A server bound to a loopback address (HOSTNAME=127.0.0.1, as behind a reverse proxy) serves its pages;
// they used to answer a 302 to themselves and a 500 ("Failed to proxy").

const PORT = 3290;

test('a server bound to 127.0.0.1 serves the pages in every locale and the API', async () => {
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOSTNAME: '127.0.0.1',
      APP_ORIGIN: `http://127.0.0.1:${PORT}`,
      // The e2e server's database; this second process runs no jobs.
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${E2E_PG_PORT}/app`,
      JOBS_IN_PROCESS: 'false',
    },
    stdio: 'pipe',
  });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await expect
      .poll(
        () =>
          fetch(`${base}/api_f/v1/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);
    for (const path of ['/', '/id/', '/es/', '/ph/', '/es/login/', '/phone-finder/']) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('</html>');
    }
    // Behind a proxy the request URL is internal: redirects name only the path, never http://localhost:PORT.
    const redirect = await fetch(`${base}/es/location?c=abc`, {
      redirect: 'manual',
      headers: { host: 'locate.example.org', 'x-forwarded-host': 'locate.example.org', 'x-forwarded-proto': 'https' },
    });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/es/location/?c=abc');
  } finally {
    server.kill('SIGTERM');
  }
});
