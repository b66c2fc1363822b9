import { expect, test, type Page } from '@playwright/test';
import { query } from './db';
import { uniqueEmail } from './helpers';

const HASH = 'e7c4a91d';

/** The page's stored tracking state (lib/tracking/state), once the tracker has started. */
function stored(page: Page) {
  return page.evaluate(() => ({
    gclid: localStorage.getItem('gclid'),
    keyword: localStorage.getItem('utm_term'),
    channel: localStorage.getItem('channel'),
    eventToken: localStorage.getItem('eventToken'),
  }));
}

test('tracked parameters survive the 301 and internal links, are stored, and reach the API with the order', async ({
  page,
}) => {
  const response = await page.goto('/es?utm_source=g&gclid=abc&utm_term=phone');
  const redirect = await response!.request().redirectedFrom()?.response();
  expect(redirect?.status()).toBe(301);
  await expect(page).toHaveURL(/\/es\/\?utm_source=g&gclid=abc&utm_term=phone$/);
  await expect.poll(async () => (await stored(page)).gclid).toBe('abc');
  const state = await stored(page);
  expect(state).toMatchObject({ keyword: 'phone', channel: null });
  expect(state.eventToken).toMatch(/^[0-9a-f]{64}$/);

  // An internal link carries the tracked parameters (and only those) to the next page.
  const about = page.locator('footer a[href^="/es/about-us/"]');
  await expect(about).toHaveAttribute('href', '/es/about-us/?utm_source=g&utm_term=phone&gclid=abc');
  await about.click();
  await expect(page).toHaveURL(/\/es\/about-us\/\?utm_source=g&utm_term=phone&gclid=abc$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const home = page.locator('header a[href^="/es/?"]').first();
  await expect(home).toHaveAttribute('href', '/es/?utm_source=g&utm_term=phone&gclid=abc');
  await home.click();
  await expect(page).toHaveURL(/\/es\/\?utm_source=g&utm_term=phone&gclid=abc$/);

  // The locate request carries keyword and gclid; the operation log and the order store them.
  const email = uniqueEmail('tracked');
  await page.getByLabel(/número de teléfono/i).fill('+14155552654');
  await page.getByLabel(/tu nombre/i).fill('Ana');
  await page.getByLabel(/correo/i).fill(email);
  await page.getByRole('checkbox').check();
  const lookup = page.waitForRequest((r) => r.url().includes('/api_f/v1/other/location/info/'));
  await page.getByRole('button', { name: /comprobar número/i }).click();
  const lookupUrl = new URL((await lookup).url());
  expect(lookupUrl.searchParams.get('keyword')).toBe('phone');
  expect(lookupUrl.searchParams.get('gclid')).toBe('abc');
  expect(lookupUrl.searchParams.get('apkChannel')).toBe('SEO');

  await expect
    .poll(async () =>
      (
        await query<{ event_code: string }>(
          `SELECT event_code FROM operation_logs WHERE track_id = $1 AND keyword = 'phone' AND gclid = 'abc'
             AND locale = 'es' AND phone_os = 2 AND app_version = 'fmp1.3' ORDER BY created_at`,
          [state.eventToken],
        )
      ).map((r) => r.event_code),
    )
    .toEqual(expect.arrayContaining(['landing_view', 'locate_submitted', 'number_identified']));

  const step = page.getByTestId('pay-step');
  await step.getByRole('button', { name: /^Pagar / }).click();
  await expect(page.getByRole('heading', { name: 'Pago' })).toBeVisible();
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await page.getByLabel('Caducidad (MM/AA)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Código postal').fill('94107');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await expect(page).toHaveURL(/\/es\/paystatus\//);

  const [order] = await query<{ attribution: Record<string, string>; status: string }>(
    'SELECT attribution, status FROM orders WHERE email = $1',
    [email],
  );
  expect(order).toMatchObject({
    status: 'paid',
    attribution: { trackId: state.eventToken, keyword: 'phone', gclid: 'abc', channel: 'SEO' },
  });
  const funnel = await query<{ event_code: string; source: string }>(
    `SELECT event_code, source FROM operation_logs WHERE track_id = $1 AND event_code IN ('checkout_started', 'paid')
       ORDER BY created_at`,
    [state.eventToken],
  );
  expect(funnel).toEqual([
    { event_code: 'checkout_started', source: 'browser' },
    { event_code: 'paid', source: 'server' },
  ]);
});

test('a button click is recorded with its channel, button id and desktop os code', async ({ page }) => {
  await page.goto('/?channel=e2eclicks');
  await expect.poll(async () => (await stored(page)).channel).toBe('e2eclicks');
  const click = page.waitForResponse((r) => r.url().endsWith('/api_f/v1/operationLog/protal'));
  await page.getByRole('button', { name: /check number/i }).click(); // invalid form: the click still counts
  expect((await click).status()).toBe(200);
  const rows = await query('SELECT btn_id, os FROM button_clicks WHERE apk_channel = $1', ['e2eclicks']);
  expect(rows).toEqual([{ btn_id: 'locate_check', os: 2 }]);
});

test('ad conversions wait for Accept all, carry fbc and the test code, and are stored', async ({ page }) => {
  const ads: string[] = [];
  page.on('request', (r) => r.url().includes(`/api_${HASH}`) && ads.push(r.url()));
  const logged = page.waitForRequest((r) => r.url().endsWith('/api_f/v1/operationLog'));
  await page.goto('/?fbclid=e2efbclid');
  await logged;
  await page.evaluate(() => localStorage.setItem('testEventCode', 'TEST42'));
  await page.waitForTimeout(1000);
  expect(ads).toEqual([]); // not before the visitor chose

  const sent = page.waitForRequest((r) => r.url().includes(`/api_${HASH}`));
  await page.getByRole('button', { name: 'Accept all' }).click();
  const request = await sent;
  expect(new URL(request.url()).search).toBe('?test=true&testEventCode=TEST42');
  const body = request.postDataJSON();
  expect(body).toMatchObject({ actionSource: 'website', eventName: 'PageView' });
  expect(body.userData.fbc).toMatch(/^fb\.1\.\d{13}\.e2efbclid$/);
  expect(Math.abs(body.eventTime - Date.now() / 1000)).toBeLessThan(60);
  expect((await request.response())?.status()).toBe(200);
  const rows = await query(
    `SELECT event_name, test_event_code, forward_status FROM ad_events WHERE user_data->>'fbc' LIKE '%.e2efbclid'`,
  );
  expect(rows).toEqual([{ event_name: 'PageView', test_event_code: 'TEST42', forward_status: 'not_configured' }]);
});

test('with Essential only no ad conversion is sent', async ({ page }) => {
  const ads: string[] = [];
  page.on('request', (r) => r.url().includes(`/api_${HASH}`) && ads.push(r.url()));
  const logged = page.waitForRequest((r) => r.url().endsWith('/api_f/v1/operationLog'));
  await page.goto('/gps-locator/?fbclid=declined');
  await logged;
  await page.getByRole('button', { name: 'Essential only' }).click();
  await page.getByRole('button', { name: /check number/i }).click();
  await page.waitForTimeout(1000);
  expect(ads).toEqual([]);
});

test('inside the iOS app the page posts its events to webkit.messageHandlers.N8WebView', async ({ page }) => {
  await page.addInitScript(() => {
    const received: unknown[] = [];
    Object.assign(window, {
      __native: received,
      webkit: { messageHandlers: { N8WebView: { postMessage: (m: unknown) => received.push(m) } } },
    });
  });
  await page.goto('/phone-finder/?package=com.example.app');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __native: unknown[] }).__native))
    .toContainEqual({ type: 'event', eventCode: 'landing_view', path: '/phone-finder/' });
});

test('the page tells the visitor when the browser goes offline', async ({ page, context }) => {
  await page.goto('/faq/');
  await expect.poll(async () => (await stored(page)).eventToken).toBeTruthy(); // hydrated, scripts loaded
  await context.setOffline(true);
  await expect(page.getByTestId('offline-notice')).toContainText('You are offline');
  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
});
