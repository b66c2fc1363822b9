import { expect, test } from '@playwright/test';
import { buyThroughApi, uniqueEmail } from './helpers';

/** The routing rules of docs/rules.md#routes against the production server. */
const noRedirect = { maxRedirects: 0 } as const;

test.describe('locale routing', () => {
  for (const [from, to] of [
    ['/es?x=1', '/es/?x=1'],
    ['/id', '/id/'],
    ['/ph?utm_source=fb&gclid=G1&ttclid=T1', '/ph/?utm_source=fb&gclid=G1&ttclid=T1'],
    ['/es/location?c=abc', '/es/location/?c=abc'],
  ]) {
    test(`bare path ${from} gets a 301 to ${to}`, async ({ request, baseURL }) => {
      const res = await request.get(from, noRedirect);
      expect(res.status()).toBe(301);
      const location = new URL(res.headers().location, baseURL);
      expect(location.pathname + location.search).toBe(to);
    });
  }

  for (const [from, to] of [
    ['/es/nope/?utm_source=g&keyword=k', '/es/?utm_source=g&keyword=k'],
    ['/nope/', '/'],
    ['/fr/anything/?fbclid=F', '/?fbclid=F'],
    ['/ph/not-a-page/', '/ph/'],
  ]) {
    test(`unknown path ${from} redirects to ${to}`, async ({ request, baseURL }) => {
      const res = await request.get(from, noRedirect);
      expect(res.status()).toBe(302);
      const location = new URL(res.headers().location, baseURL);
      expect(location.pathname + location.search).toBe(to);
    });
  }

  for (const [path, lang, heading] of [
    ['/', 'en', 'Locate a phone — with its owner'],
    ['/es/', 'es', 'Localiza un teléfono'],
    ['/id/', 'id', 'Temukan lokasi ponsel'],
    ['/ph/', 'en-PH', 'Locate a phone — with its owner'],
  ]) {
    test(`${path} is served in ${lang} with <html lang="${lang}">`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
    });
  }

  test("/locate/ and /es/phone-locate/ are landing pages for one's own phone with the locate box", async ({ page }) => {
    await page.goto('/locate/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find your own lost phone');
    await expect(page.getByRole('button', { name: 'Check number' })).toBeVisible();
    await page.goto('/es/phone-locate/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Localiza mi teléfono por su número');
  });

  test('/404 shows the not-found message and a Back button that goes back', async ({ page }) => {
    await page.goto('/es/');
    await page.goto('/404/');
    await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/es\/$/);
  });

  test('the phone error is in Spanish at /es/', async ({ page }) => {
    await page.goto('/es/');
    await page.getByLabel('Número de teléfono').fill('+999 123');
    await page.getByLabel('Tu nombre, tal como lo verá el titular').fill('Ana');
    await page.getByLabel(/correo electrónico/).fill('alguien@example.com');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Comprobar número' }).click();
    await expect(page.locator('#phone-error')).toHaveText(
      'El formato del número de teléfono no es válido. (código de país no válido)',
    );
    await expect(page.getByLabel('Número de teléfono')).toHaveValue('+999 123');
  });

  test('the locate box explains missing fields in Indonesian before calling the server', async ({ page }) => {
    await page.goto('/id/');
    await page.getByRole('button', { name: 'Periksa nomor' }).click();
    await expect(page.getByText('Silakan masukkan nomor telepon')).toBeVisible();
    await expect(page.getByText('Masukkan nama Anda agar pemilik tahu siapa yang meminta')).toBeVisible();
    await expect(page.getByText('Silakan masukkan email')).toBeVisible();
    await expect(page.getByText('Setujui ketentuan penggunaan dan kebijakan privasi untuk melanjutkan')).toBeVisible();
  });
});

test.describe('signed-in visitors', () => {
  let token = '';
  test.beforeAll(async ({ request }) => {
    token = await buyThroughApi(request, '+14155552653', uniqueEmail('routing'));
  });

  for (const [from, to] of [
    ['/?utm_source=news&gclid=abc', '/dashboard/locations/?utm_source=news&gclid=abc'],
    ['/es/?wbraid=w', '/es/dashboard/locations/?wbraid=w'],
    ['/ph/', '/ph/dashboard/locations/'],
    ['/locate/?gclid=x', '/dashboard/locations/?gclid=x'],
  ]) {
    test(`a live session on ${from} goes to ${to}`, async ({ request, baseURL }) => {
      const res = await request.get(from, { ...noRedirect, headers: { cookie: `token=${token}` } });
      expect(res.status()).toBe(302);
      const location = new URL(res.headers().location, baseURL);
      expect(location.pathname + location.search).toBe(to);
    });
  }

  test('pages that are not landing pages are not redirected', async ({ request }) => {
    const res = await request.get('/faq/', { ...noRedirect, headers: { cookie: `token=${token}` } });
    expect(res.status()).toBe(200);
    // The not-found page answers 404, with or without a session.
    const missing = await request.get('/404/', { ...noRedirect, headers: { cookie: `token=${token}` } });
    expect(missing.status()).toBe(404);
  });

  test('the free tools are served to a signed-in subscriber, in every language', async ({ page, context, baseURL }) => {
    for (const prefix of ['', '/es', '/id', '/ph']) {
      for (const tool of ['/phone-finder/', '/ip-tracker/', '/username-lookup/']) {
        const res = await page.request.get(`${prefix}${tool}`, {
          ...noRedirect,
          headers: { cookie: `token=${token}` },
        });
        expect(res.status(), `${prefix}${tool}`).toBe(200);
      }
    }
    // In a browser with the session: the tool page itself, not My locations.
    await context.addCookies([{ name: 'token', value: token, url: baseURL! }]);
    await page.goto('/phone-finder/');
    await expect(page).toHaveURL(/\/phone-finder\/$/);
    await expect(page.locator('#main input').first()).toBeVisible();
    await page.goto('/es/ip-tracker/');
    await expect(page).toHaveURL(/\/es\/ip-tracker\/$/);
  });

  test('an invalid session cookie is cleared and the home page shows (no loop)', async ({ request }) => {
    const res = await request.get('/', { ...noRedirect, headers: { cookie: 'token=not-a-live-session' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['set-cookie']).toMatch(/token=;/);
  });

  test('the dashboard with a dead session shows a sign-in notice instead of redirecting', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'token', value: 'expired-or-revoked', url: baseURL! }]);
    await page.goto('/dashboard/locations/');
    await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/locations\/$/);
  });
});
