import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium';
import { E2E_PG_PORT } from './e2e/db';

/**
 * Playwright against the production build (`npm start` = scripts/start.mjs after `npm run build`), in Debian's
 * Chromium when /usr/bin/chromium exists, else Playwright's own. e2e/serve.mjs gives the server a throwaway embedded
 * PostgreSQL in a temp directory.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);

/**
 * Specs that start a small cluster of their own (app processes, a worker, PgBouncer, Redis: e2e/cluster.ts) or a
 * server that measures its own start: they load the machine and some measure time, so no two of them run at once
 * (beside them, the other worker goes on with the light files). The specs that start a second server of the build on
 * the suite's database (data-leaks, loopback) stay light files: that server has the default per-IP limits, which the
 * suite's own orders would spend if they ran at its end.
 */
const CLUSTER_SPECS = ['pooler.spec.ts', 'restart.spec.ts', 'scale.spec.ts', 'serving.spec.ts', 'container.spec.ts'];
/** The demo images are regenerated on purpose only (`npm run demo:images`), never as part of the suite. */
const ON_PURPOSE = process.env.DEMO_IMAGES ? [] : ['demo-images.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright-artifacts',
  // Two files at a time: most of the suite waits on timers and the network (a minute of silence, a share's window),
  // and each spec file buys for numbers no other file uses, so no file reads another's SMS or request.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]] : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    // Recorded on the retry of a failed test only (CI retries once): recording every test cost about 0.5 s each.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: 'chromium', testIgnore: [...CLUSTER_SPECS, ...ON_PURPOSE], use: { ...devices['Desktop Chrome'] } },
    { name: 'cluster', testMatch: CLUSTER_SPECS, workers: 1, use: { ...devices['Desktop Chrome'] } },
  ],
  webServer: [
    {
      // Fake public sites for the username lookup, named by e2e/fixtures/wmn-sites.json.
      command: 'npx tsx e2e/fake-sites-server.ts',
      url: 'http://127.0.0.1:3296/code/alice',
      timeout: 30_000,
      reuseExistingServer: false,
    },
    {
      command: `node e2e/serve.mjs`,
      url: `http://localhost:${PORT}/api_f/v1/health`,
      // The journeys pay for the same few numbers many times: SMS caps high enough for the suite.
      env: {
        PORT: String(PORT),
        APP_ORIGIN: `http://localhost:${PORT}`,
        SMS_MAX_PER_TARGET_PER_DAY: '100',
        SMS_MAX_PER_BUYER_PER_DAY: '100',
        ORDERS_PER_IP_PER_HOUR: '1000',
        // Every page view logs events from the one test IP.
        TRACKING_PER_IP_PER_HOUR: '100000',
        // A fixed port, so specs can check rows in the database (e2e/db.ts).
        EMBEDDED_PG_PORT: String(E2E_PG_PORT),
        // One JSON line per request would bury the test report; warnings and errors still show.
        LOG_LEVEL: 'warn',
        // No request leaves the machine (the Pwned Passwords check is tested against a local fake in Vitest).
        PWNED_PASSWORDS_URL: 'off',
        // The username lookup asks the fake sites on loopback (the tests-only setting), 4 s at most each.
        USERNAME_SITES_FILE: 'e2e/fixtures/wmn-sites.json',
        USERNAME_LOOKUP_ALLOW_LOOPBACK: 'true',
        USERNAME_LOOKUP_TIMEOUT_MS: '4000',
        USERNAME_LOOKUPS_PER_IP_PER_HOUR: '1000',
      },
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
  ],
});
