import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import en from '../messages/en.json' with { type: 'json' };

test('the FAQ opens, the carousel swipes, header anchors scroll', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  const second = page.getByTestId('faq-item').nth(1);
  await expect(second).not.toHaveAttribute('open', '');
  await second.locator('summary').click();
  await expect(second).toHaveAttribute('open', '');
  await expect(second.getByText(en.Faq.q2Description)).toBeVisible();

  const carousel = page.getByTestId('situations');
  await carousel.scrollIntoViewIfNeeded();
  const swiper = carousel.locator('.swiper');
  await expect(swiper).toBeVisible();
  const first = carousel.locator('.swiper-slide').first();
  await expect(first).toHaveClass(/swiper-slide-active/);
  const box = (await swiper.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(carousel.locator('.swiper-slide').nth(1)).toHaveClass(/swiper-slide-active/);

  await page
    .getByRole('button', { name: 'Menu' })
    .or(page.locator('summary', { hasText: 'Menu' }))
    .first()
    .click();
  await page.getByRole('link', { name: 'Price', exact: true }).first().click();
  await expect(page).toHaveURL(/#price$/);
  await expect(page.getByTestId('price-card')).toBeInViewport();
  await expect(page.getByTestId('price-integer')).toHaveText('0');
});

test('the language switcher keeps the path and the query', async ({ page }) => {
  await page.goto('/es/faq/?utm_source=news&gclid=abc');
  await page.locator('summary', { hasText: 'Elige un idioma' }).click();
  const link = page.getByRole('link', { name: 'Bahasa Indonesia' });
  await expect(link).toHaveAttribute('href', '/id/faq/?utm_source=news&gclid=abc');
  await link.click();
  await expect(page).toHaveURL(/\/id\/faq\/\?utm_source=news&gclid=abc$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pertanyaan yang sering diajukan');
});

test("the cookie banner's choice persists", async ({ page, context }) => {
  await page.goto('/');
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Accept all' }).click();
  await expect(banner).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === 'acceptCookie');
  expect(cookie?.value).toBe('1');
  await page.goto('/es/privacy-policy/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('cookie-banner')).toHaveCount(0);
});

test('the reverse phone lookup and the IP lookup work, say what they do not do, and never load the axios client', async ({
  page,
}) => {
  // The free tools call the API with fetch (lib/api/fetch.ts): the scripts they load never hold axios, whose
  // evaluation was a long task on a slow phone (bench/lighthouse-report.md).
  let scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    // An unreadable body counts as empty (and fails the check below); a script arriving after the test ended, when
    // the page is closed, must not fail the run with an unhandled rejection.
    if (response.request().resourceType() === 'script') scripts.push(response.text().catch(() => ''));
  });
  /** Reads every script the page has loaded so far (before leaving it, while the bodies are there) and checks them. */
  const expectNoAxios = async () => {
    const loaded = await Promise.all(scripts);
    scripts = [];
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((text) => text.length === 0)).toEqual([]);
    expect(loaded.filter((text) => /AxiosError/.test(text))).toEqual([]);
  };
  await page.goto('/phone-finder/');
  await expect(page.getByTestId('tool-note')).toContainText('This does not locate the phone.');
  await page.getByLabel('Phone number').fill('+44 7700 900123');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByTestId('lookup-result').getByTestId('fact-carrier')).toContainText('O2');
  await expectNoAxios();

  await page.goto('/ip-tracker/');
  await expect(page.getByTestId('tool-note')).toContainText('never a street address');
  await expect(page.getByTestId('ip-result')).toContainText('Your address');
  await page.getByLabel('IP address').fill('8.8.8.8');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByTestId('ip-result')).toContainText('United States');
  await expect(page.locator('.leaflet-container')).toBeVisible();
  await expectNoAxios();
});

test('the contact form validates, sends, and e-mails support through the outbox', async ({ page }) => {
  await page.goto('/es/contact-us/');
  await page.getByRole('button', { name: 'Enviar mensaje' }).click();
  await expect(page.getByText('Escribe tu nombre')).toBeVisible();
  await page.getByLabel('Tu nombre').fill('Ana');
  await page.getByLabel('Tu correo').fill('ana@example.com');
  await page.getByLabel('Tu mensaje').fill('¿Cómo cancelo mi prueba?');
  await page.getByRole('button', { name: 'Enviar mensaje' }).click();
  await expect(page.getByRole('status')).toContainText('Tu mensaje se ha enviado');
  await page.goto('/dev/outbox/');
  await expect(
    page.locator('[data-testid="outbox-email"][data-recipient="support@example.com"]').filter({ hasText: 'Ana' }),
  ).toBeVisible();
});

test('screenshots at 375×812 and 1280×800 of home, a landing page, the price card and /ip-tracker', async ({
  page,
  baseURL,
}, info) => {
  // The cookie choice is made, so the banner does not cover what the screenshots are for.
  await page.context().addCookies([{ name: 'acceptCookie', value: '0', url: baseURL! }]);
  for (const [w, h] of [
    [375, 812],
    [1280, 800],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    for (const [name, path] of [
      ['home', '/'],
      ['gps-locator', '/es/gps-locator/'],
      ['ip-tracker', '/ip-tracker/'],
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} overflows horizontally at ${w}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: info.outputPath(`${name}-${w}.png`), fullPage: true });
    }
    await page.goto('/#price');
    await expect(page.getByTestId('price-integer')).toBeVisible();
    await page.getByTestId('price-card').screenshot({ path: info.outputPath(`price-card-${w}.png`) });
  }
});

test('demo mode says so on every page, in the page language', async ({ page }) => {
  for (const [path, text] of [
    ['/', 'Demo: no real payment or SMS is made.'],
    ['/es/faq/', 'Demo: no se realiza ningún pago ni SMS real.'],
    ['/id/login/', 'Demo: tidak ada pembayaran atau SMS sungguhan.'],
    ['/ph/contact-us/', 'Demo: no real payment or SMS is made.'],
  ]) {
    await page.goto(path);
    await expect(page.getByTestId('demo-ribbon')).toHaveText(text);
  }
});

test('paths Next cannot decode and methods it cannot take answer 400/405, never 500 (scripts/request-guard.mjs)', async ({
  request,
  baseURL,
}) => {
  for (const segment of ['a%ZZb', '%ED%A0%80', '%E0%A4%A']) {
    const api = await request.get(`/api_f/v1/other/location/info/${segment}`, { headers: { 'accept-language': 'es' } });
    expect(api.status(), segment).toBe(400);
    expect(await api.json()).toEqual({
      success: 0,
      code: 40000,
      msg: 'La solicitud contiene caracteres no permitidos.',
    });
    expect(api.headers()['x-frame-options']).toBe('DENY');
    const page = await request.get(`/es/faq/${segment}/`);
    expect(page.status(), segment).toBe(400);
    expect(page.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('La solicitud contiene caracteres no permitidos.');
  }
  // Decodable but not clean (a NUL): through Next to the API's own check, in the envelope.
  const nul = await request.get('/api_f/v1/other/location/info/a%00b');
  expect(nul.status()).toBe(400);
  expect(await nul.json()).toMatchObject({ success: 0, code: 40000 });
  // A deep JSON body reaches the API's depth limit through Next.
  const deep = await request.post('/api_f/v1/portal/order', {
    headers: { website_type: '7', 'content-type': 'application/json' },
    data: '['.repeat(5000) + '1' + ']'.repeat(5000),
  });
  expect(deep.status()).toBe(400);
  expect(await deep.json()).toMatchObject({ success: 0, msg: en.Api.tooDeep });

  const trace = await request.fetch('/', { method: 'TRACE' });
  expect(trace.status()).toBe(405);
  expect(trace.headers()['allow']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  expect(trace.headers()['content-security-policy']).toContain("default-src 'self'");
  for (const method of ['TRACE', 'PROPFIND']) {
    const api = await request.fetch('/api_f/v1/health', { method });
    expect(api.status(), method).toBe(405);
    expect(api.headers()['allow']).toContain('GET');
    expect(await api.json()).toEqual({ success: 0, code: 40500, msg: en.Api.methodNotAllowed });
  }
  // CONNECT goes to Node's `connect` event, not the request handler: answered 405 on the socket.
  const { port } = new URL(baseURL!);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), 'localhost', () =>
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 405 /);
});

test('every kind of response carries the security headers (next.config.ts headers())', async ({ request }) => {
  const home = await request.get('/es/');
  const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await home.text())![1];
  const answers = [
    home,
    await request.get('/'),
    await request.get('/api_f/v1/health'),
    await request.get('/api_f/v1/portal/priceSetup'),
    await request.get(script),
    await request.get('/icons.svg'),
    await request.get('/no-such-page/x/y/'),
  ];
  for (const answer of answers) {
    const headers = answer.headers();
    expect(headers['x-frame-options'], answer.url()).toBe('DENY');
    expect(headers['x-content-type-options'], answer.url()).toBe('nosniff');
    expect(headers['referrer-policy'], answer.url()).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], answer.url()).toBe('camera=(), microphone=(), geolocation=(self)');
    const csp = headers['content-security-policy'];
    expect(csp, answer.url()).toContain("frame-ancestors 'none'");
    expect(csp, answer.url()).toContain("default-src 'self'");
    expect(csp, answer.url()).toContain("img-src 'self' data: https://*.tile.openstreetmap.org");
    // A production build: no 'unsafe-eval'.
    expect(csp, answer.url()).not.toContain('unsafe-eval');
  }
});

test("only the checkout pages' policy allows Stripe's embedded checkout, in every locale", async ({ request }) => {
  for (const path of ['/checkout/', '/es/checkout/', '/id/checkout/', '/ph/checkout/']) {
    const csp = (await request.get(path)).headers()['content-security-policy'];
    expect(csp, path).toMatch(/script-src 'self' 'unsafe-inline'[^;]* https:\/\/js\.stripe\.com/);
    expect(csp, path).toMatch(/frame-src 'self'[^;]* https:\/\/js\.stripe\.com/);
    expect(csp, path).toContain("frame-ancestors 'none'");
  }
  for (const path of ['/', '/es/', '/paystatus/', '/es/checkout/wallet/']) {
    expect((await request.get(path)).headers()['content-security-policy'], path).not.toContain('stripe.com');
  }
});
