import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { buyThroughApi, uniqueEmail } from './helpers';

// The buyer's alerts in Chromium: the dashboard offers "Notify me on this device" and asks the browser for nothing
// until it is tapped; each state says where alerts go; the dashboard installs as an app (manifest, icons) in the
// locale's language.

type PushTexts = { turnOn: string; turnOff: string; what: string; state: Record<string, string> };
const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as {
    Dashboard: { push: PushTexts; appDescription: string };
  };

const LOCALES = [
  { prefix: '', lang: 'en', locale: 'en', phone: '+1 415 555 2663' },
  { prefix: '/es', lang: 'es', locale: 'es', phone: '+1 415 555 2664' },
  { prefix: '/id', lang: 'id', locale: 'id', phone: '+1 415 555 2665' },
  { prefix: '/ph', lang: 'en', locale: 'en-PH', phone: '+1 415 555 2666' },
];

for (const { prefix, lang, locale, phone } of LOCALES) {
  test(`${locale}: notifications are offered, never asked on load, and the dashboard installs as an app`, async ({
    browser,
    baseURL,
  }) => {
    const texts = catalogue(lang).Dashboard;
    const context = await browser.newContext();
    const token = await buyThroughApi(context.request, phone, uniqueEmail(`push-${locale}`));
    await context.addCookies([{ name: 'token', value: token, url: baseURL! }]);
    const page = await context.newPage();
    await page.goto(`${prefix}/dashboard/locations/`);
    const toggle = page.getByTestId('push-toggle');
    await expect(toggle).toHaveAttribute('data-state', 'off');
    await expect(toggle).toContainText(texts.push.what);
    await expect(toggle.getByRole('status')).toHaveText(texts.push.state.off);
    await expect(toggle.getByRole('button', { name: texts.push.turnOn })).toBeVisible();
    // Loading the page asked nothing and registered nothing.
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

    // The manifest: the locale's dashboard as the start, its language, installable icons.
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe(`/app.webmanifest?lang=${encodeURIComponent(locale)}`);
    const manifest = await (await context.request.get(href!)).json();
    expect(manifest).toMatchObject({
      start_url: `${prefix}/dashboard/locations/`,
      lang: locale,
      display: 'standalone',
      description: texts.appDescription,
    });
    for (const icon of manifest.icons as { src: string }[]) {
      const res = await context.request.get(icon.src);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('image/png');
    }
    await context.close();
  });
}

test('a refused prompt reads "blocked"; the tap registers the service worker; alerts stay on e-mail when the browser cannot subscribe', async ({
  browser,
  baseURL,
}) => {
  const texts = catalogue('en').Dashboard.push;
  // The user says no at the browser's prompt.
  const refusing = await browser.newContext();
  const token = await buyThroughApi(refusing.request, '+1 415 555 2662', uniqueEmail('push-deny'));
  await refusing.addCookies([{ name: 'token', value: token, url: baseURL! }]);
  const page = await refusing.newPage();
  await page.goto('/dashboard/locations/');
  await page.evaluate(() => {
    Notification.requestPermission = async () => 'denied';
  });
  await page.getByRole('button', { name: texts.turnOn }).click();
  const toggle = page.getByTestId('push-toggle');
  await expect(toggle).toHaveAttribute('data-state', 'blocked');
  await expect(toggle.getByRole('status')).toHaveText(texts.state.blocked);
  await refusing.close();

  // The user allows: the service worker is registered at the site's root. This headless Chromium has no push service
  // (no network beyond this machine), so the subscription fails and the page says alerts still come by e-mail.
  const allowing = await browser.newContext({ permissions: ['notifications'] });
  await allowing.addCookies([{ name: 'token', value: token, url: baseURL! }]);
  const second = await allowing.newPage();
  await second.goto('/dashboard/locations/');
  await second.getByRole('button', { name: texts.turnOn }).click();
  const state = second.getByTestId('push-toggle');
  await expect(state).toHaveAttribute('data-state', /^(on|failed)$/);
  const scopes = await second.evaluate(async () =>
    (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.scope).pathname),
  );
  expect(scopes).toEqual(['/']);
  if ((await state.getAttribute('data-state')) === 'failed') {
    await expect(state.getByRole('status')).toHaveText(texts.state.failed);
  } else {
    await expect(state.getByRole('button', { name: texts.turnOff })).toBeVisible();
  }
  const sw = await allowing.request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  await allowing.close();
});
