// Run before the browser tests (`npm run test:e2e`): makes sure a Chromium is there, so `npm test` is the whole set-up
// on a fresh machine. The system Chromium (/usr/bin/chromium, Debian's `chromium` package) is used when it exists
// (e2e/chromium.ts); otherwise Playwright's own, installed now when missing (`npx playwright install chromium`,
// Playwright docs, "Browsers"). Exits 1 with the reason when neither can be had (a machine without the download
// servers): install the system package instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

if (existsSync(SYSTEM_CHROMIUM)) process.exit(0);
if (existsSync(chromium.executablePath())) process.exit(0);

console.log('No Chromium found: installing Playwright\u2019s (npx playwright install chromium)\u2026');
const install = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
if (install.status !== 0 || !existsSync(chromium.executablePath())) {
  console.error(
    'Could not install a Chromium for the browser tests. Install the system one (Debian: apt-get install chromium) ' +
      'and run npm test again.',
  );
  process.exit(1);
}
