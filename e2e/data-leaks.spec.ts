import { spawn, type ChildProcess } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser } from '@playwright/test';
import { FakeHibp, hibpBreach } from '../tests/support/fake-hibp';
import { E2E_PG_PORT } from './db';
import { buyThroughApi, uniqueEmail } from './helpers';

// The data-leak page, on the suite's server (no HIBP key: not configured) and on a second server of the
// same build and database given a key and a local fake of Have I Been Pwned.

const PORT = 3291;
const fake = new FakeHibp();
let server: ChildProcess;

test.beforeAll(async () => {
  await fake.start();
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      APP_ORIGIN: `http://localhost:${PORT}`,
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${E2E_PG_PORT}/app`,
      JOBS_IN_PROCESS: 'false',
      HIBP_API_KEY: fake.key,
      HIBP_API_URL: fake.urls.api,
      PWNED_PASSWORDS_URL: 'off',
      LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      () =>
        fetch(`http://localhost:${PORT}/api_f/v1/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await fake.stop();
});

/** A signed-in phone-sized context at `base` for a new subscriber; returns it with the subscriber's e-mail. */
async function subscriber(browser: Browser, base: string, tag: string) {
  const email = uniqueEmail(tag);
  const context = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, isMobile: true });
  const token = await buyThroughApi(context.request, `+4474001${String(Date.now()).slice(-5)}`, email);
  const { hostname } = new URL(base);
  await context.addCookies([{ name: 'token', value: token, domain: hostname, path: '/' }]);
  return { context, email: email.toLowerCase() };
}

test('without an HIBP key the page says the check is not configured here, in every locale', async ({
  browser,
  baseURL,
}) => {
  const { context } = await subscriber(browser, baseURL!, 'leaks-off');
  const page = await context.newPage();
  for (const [prefix, text] of [
    ['', 'The data-leak check is not configured on this server.'],
    ['/es', 'La comprobación de filtraciones no está configurada en este servidor.'],
    ['/id', 'Cek kebocoran data belum dikonfigurasi di server ini.'],
    ['/ph', 'The data-leak check is not configured on this server.'],
  ]) {
    await page.goto(`${prefix}/dashboard/data-leaks/`);
    await expect(page.getByTestId('leaks-not-configured')).toHaveText(text);
    await expect(page.getByTestId('breach')).toHaveCount(0);
    // Not offered here: no tab leads to it (the address still answers, saying so).
    await expect(page.getByTestId('dashboard-nav').getByRole('link')).toHaveCount(3);
    await expect(page.getByTestId('dashboard-nav').locator('a[href$="/dashboard/data-leaks/"]')).toHaveCount(0);
  }
  // The home page of this build (made without a key) does not advertise it.
  const home = await (await fetch(`${baseURL}/`)).text();
  expect(home).toContain('Reverse phone lookup');
  expect(home).not.toContain('Data-leak check');
  await context.close();
});

test("with a key it lists the breaches of the subscriber's own e-mail and what to do", async ({ browser }) => {
  const base = `http://localhost:${PORT}`;
  const { context, email } = await subscriber(browser, base, 'leaks-on');
  fake.accounts.set(email, [
    hibpBreach('Adobe', '2013-10-04', ['Email addresses', 'Password hints', 'Passwords', 'Usernames']),
    hibpBreach('Canva', '2019-05-24', ['Email addresses', 'Names']),
  ]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/es/dashboard/data-leaks/');
  // Configured on this server (read when the page is served, not when it was built): the tab is there.
  await expect(page.getByTestId('dashboard-nav').getByRole('link')).toHaveCount(4);
  await expect(page.getByTestId('dashboard-nav').getByRole('link', { name: 'Filtraciones' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByTestId('leaks-summary')).toHaveText(`${email} aparece en 2 filtraciones de datos.`);
  const breaches = page.getByTestId('breach');
  await expect(breaches.first()).toContainText('Canva');
  await expect(breaches.first()).not.toContainText('Cambia la contraseña');
  await expect(breaches.nth(1)).toContainText('filtrado el 4 oct 2013');
  await expect(breaches.nth(1)).toContainText('Cambia la contraseña que usabas en Adobe');
  await expect(breaches.nth(1)).toContainText('Activa la verificación en dos pasos');
  await page.screenshot({ path: 'test-results/screens/data-leaks-es-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

test('a failing breach service reads "try later", never "no breaches"', async ({ browser }) => {
  const { context } = await subscriber(browser, `http://localhost:${PORT}`, 'leaks-down');
  fake.mode = 'down';
  const page = await context.newPage();
  await page.goto('/dashboard/data-leaks/');
  await expect(page.getByTestId('leaks-error')).toContainText('Please try again later.');
  await expect(page.getByTestId('leaks-summary')).toHaveCount(0);
  fake.mode = 'ok';
  await context.close();
});
