import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, checkNumber, consentLinkFromOutbox, uniqueEmail } from './helpers';

// Smaller things a person trips on, each checked as the person meets it, with screenshots of the pages at 360, 390
// and 1280 px in the four locales (test-results/trips/).

const PREFIXES = ['', '/es', '/id', '/ph'];
const WIDTHS = [360, 390, 1280];
const SHOTS = 'test-results/trips';
mkdirSync(SHOTS, { recursive: true });

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const INSTAGRAM_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 339.0.3.12.91 (iPhone15,2; iOS 17_5; en_US; en; scale=3.00; 1179x2556; 623244451)';

/** A context `width` px wide (a phone below 1024 px), with the cookie choice made unless `banner`. */
async function sized(browser: Browser, baseURL: string, width: number, opts: { banner?: boolean; ua?: string } = {}) {
  const phone = width < 1024;
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: phone ? 800 : 800 },
    isMobile: phone,
    hasTouch: phone,
    userAgent: opts.ua ?? (phone ? ANDROID : undefined),
  });
  if (!opts.banner) await context.addCookies([{ name: 'acceptCookie', value: '0', url: baseURL }]);
  return context;
}

/** Saves a screenshot of `page` as test-results/trips/`name`.png (the viewport, or the whole page when `full`). */
async function shot(page: Page, name: string, full = false) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: full });
}

test('at 360 px opening one header menu closes the other: Menu, languages and Account never lie on top of each other', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  for (const width of WIDTHS) {
    const context = await sized(browser, baseURL!, width);
    await buyThroughApi(context.request, '+14155552669', uniqueEmail(`menus${width}`));
    const page = await context.newPage();
    for (const prefix of PREFIXES) {
      await page.goto(`${prefix}/dashboard/billing/`);
      const account = page.getByTestId('account-menu');
      await expect(account).toBeVisible();
      const menus = page.locator('header details:visible');
      const count = await menus.count();
      expect(count).toBeGreaterThanOrEqual(3);
      // Open each in turn: only the last one opened stays open.
      for (let i = 0; i < count; i++) {
        await menus.nth(i).locator('summary').click();
        const open = await page.locator('header details[open]').count();
        expect(open, `${prefix || 'en'} ${width}px after opening menu ${i}`).toBe(1);
        await expect(menus.nth(i)).toHaveAttribute('open', '');
      }
      if (width < 1024) {
        await page.getByTestId('header-menu').locator('summary').click();
        await account.locator('summary').click();
        await expect(page.getByTestId('header-menu')).not.toHaveAttribute('open', '');
        await expect(account.getByRole('link').first()).toBeVisible();
      } else {
        await account.locator('summary').click();
      }
      await shot(page, `header-account-open${prefix.replace('/', '-') || '-en'}-${width}`);
    }
    await context.close();
  }
});

test('in Instagram’s browser, a refused location says to open the link in Safari, with Copy link, in the owner’s language', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  const buyer = await browser.newContext({ baseURL });
  await buyThroughApi(buyer.request, '+34 612 34 99 01', uniqueEmail('inapp'));
  const link = await consentLinkFromOutbox(await buyer.newPage(), '+34612349901');
  for (const width of WIDTHS) {
    const owner = await browser.newContext({
      baseURL,
      viewport: { width, height: 800 },
      isMobile: width < 1024,
      hasTouch: width < 1024,
      userAgent: INSTAGRAM_IOS,
      permissions: [],
    });
    await owner.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await owner.newPage();
    // A Spanish number: the link is in Spanish.
    await page.goto(link);
    // The first refusal is remembered: later visits offer Share again.
    await page.getByRole('button', { name: /^(Compartir mi ubicación|Compartir de nuevo)$/ }).click();
    const help = page.getByTestId('open-in-browser');
    await expect(help).toContainText('Abre el enlace en Safari');
    await expect(page.getByText('el candado o la «i» junto a la dirección')).toHaveCount(0);
    await help.getByRole('button', { name: 'Copiar enlace' }).click();
    await expect(help.getByRole('status')).toHaveText('Enlace copiado');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await help.scrollIntoViewIfNeeded();
    await shot(page, `consent-in-app-es-${width}`);
    // The same page in the other languages (the link's path under their prefix).
    if (width === 390) {
      for (const prefix of ['', '/id', '/ph']) {
        const url = new URL(link);
        await page.goto(`${prefix}/location/${url.search}`);
        await page
          .getByRole('button', { name: /^(Share my location|Share again|Bagikan lokasi saya|Bagikan lagi)$/ })
          .click();
        await expect(page.getByTestId('open-in-browser')).toContainText(/Safari/);
        await page.getByTestId('open-in-browser').scrollIntoViewIfNeeded();
        await shot(page, `consent-in-app${prefix.replace('/', '-') || '-en'}-${width}`);
      }
    }
    await owner.close();
  }
  await buyer.close();
});

test('Share again after a stop asks first; Cancel shares nothing, confirming shares', async ({ browser, baseURL }) => {
  const buyer = await browser.newContext({ baseURL });
  await buyThroughApi(buyer.request, '+62 812 3456 7801', uniqueEmail('again'));
  const link = await consentLinkFromOutbox(await buyer.newPage(), '+6281234567801');
  const owner = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 800 },
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: -6.2, longitude: 106.8, accuracy: 10 },
    permissions: ['geolocation'],
  });
  const page = await owner.newPage();
  // An Indonesian number: the link is in Indonesian.
  await page.goto(link);
  await page.getByRole('button', { name: 'Bagikan lokasi saya' }).click();
  await page.getByRole('button', { name: 'Berhenti berbagi' }).click();
  await page.getByRole('button', { name: 'Ya', exact: true }).click();
  await expect(page.getByTestId('consent-panel')).toHaveAttribute('data-state', 'stopped');
  const code = new URL(link).searchParams.get('c');
  const shares = async () =>
    (
      await query(
        `select count(*)::int as n from consents c join location_requests r on r.id = c.request_id
         where r.consent_code_hash = encode(sha256($1::bytea), 'hex') and c.decision in ('shared', 'shared_again')`,
        [code],
      )
    )[0].n;
  const before = await shares();
  await page.getByRole('button', { name: 'Bagikan lagi' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Bagikan lagi lokasi ponsel ini dengan Anna (your sister) selama 1 jam?');
  await shot(page, 'share-again-confirm-id-360');
  await dialog.getByRole('button', { name: 'Batal' }).click();
  await expect(page.getByTestId('consent-panel')).toHaveAttribute('data-state', 'stopped');
  expect(await shares()).toBe(before);
  await page.getByRole('button', { name: 'Bagikan lagi' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Bagikan lagi' }).click();
  await expect(page.getByTestId('consent-panel')).toHaveAttribute('data-state', 'sharing');
  await owner.close();
  await buyer.close();
});

test('Buy again opens the locate box with the number and the e-mail, not empty', async ({ browser, baseURL }) => {
  const context = await sized(browser, baseURL!, 390);
  const email = uniqueEmail('again');
  await buyThroughApi(context.request, '+44 7400 123490', email);
  const [order] = await query<{ code: string }>('select code from orders where email = $1', [email]);
  const refund = await context.request.post('/api_f/v1/admin/order/refund', {
    headers: { website_type: '7' },
    form: { code: order.code },
  });
  expect(refund.status()).toBe(200);
  const page = await context.newPage();
  await page.goto('/es/dashboard/billing/');
  await page.getByTestId('subscription-ended').getByRole('link', { name: 'Comprar de nuevo' }).click();
  await expect(page.getByLabel('Número de teléfono')).toHaveValue('+44 7400 123490');
  await expect(page.getByLabel(/correo/i)).toHaveValue(email);
  await shot(page, 'buy-again-es-390');
  await context.close();
});

test('the IP tracker’s map stays under the cookie bar and the header', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  for (const width of WIDTHS) {
    const context = await sized(browser, baseURL!, width, { banner: true });
    const page = await context.newPage();
    for (const prefix of PREFIXES) {
      await page.goto(`${prefix}/ip-tracker/`);
      await page.locator('#lookup-ip').fill('8.8.8.8');
      await page.getByRole('button', { name: /Look up|Buscar|Cari/ }).click();
      const map = page.locator('.leaflet-container');
      await expect(map).toBeVisible();
      const bar = page.getByTestId('cookie-banner');
      await expect(bar).toBeVisible();
      // Scroll the map under the bar: what a tap on the bar reaches is the bar, not the map.
      await page.evaluate(() => {
        const m = document.querySelector('.leaflet-container')!.getBoundingClientRect();
        window.scrollBy(0, m.top + m.height / 2 - (innerHeight - 20));
      });
      const hit = await page.evaluate(() => {
        const b = document.querySelector('[data-testid="cookie-banner"]')!.getBoundingClientRect();
        const el = document.elementFromPoint(b.left + 8, b.top + b.height / 2);
        return !!el?.closest('[data-testid="cookie-banner"]');
      });
      expect(hit, `${prefix || 'en'} at ${width}px`).toBe(true);
      await shot(page, `ip-tracker-bar${prefix.replace('/', '-') || '-en'}-${width}`);
    }
    await context.close();
  }
});

test('a wallet payer reads about the wallet, not a card statement (es pay step and wallet page)', async ({
  browser,
  baseURL,
}) => {
  for (const width of WIDTHS) {
    const context = await sized(browser, baseURL!, width);
    const page = await context.newPage();
    await checkNumber(page, '+34 612 34 99 1' + String(WIDTHS.indexOf(width)), uniqueEmail('wallet'), '/es/');
    const step = page.getByTestId('pay-step');
    await step.getByRole('radio', { name: 'Monedero' }).check();
    await expect(step.getByTestId('descriptor')).toContainText('En los movimientos de tu monedero');
    await expect(step).not.toContainText('extracto de tu tarjeta');
    await step.getByTestId('descriptor').scrollIntoViewIfNeeded();
    await shot(page, `pay-step-wallet-es-${width}`);
    await step.getByRole('button', { name: /^Pagar / }).click();
    await expect(page.getByRole('heading', { name: 'Monedero de prueba' })).toBeVisible();
    await expect(page.getByText(/^En tu monedero: /)).toBeVisible();
    await expect(page.getByText(/Extracto de la tarjeta/)).toHaveCount(0);
    await shot(page, `wallet-page-es-${width}`, true);
    await context.close();
  }
});

test('on a desktop, after Check number the pay step sits beside the facts and Pay is on the screen', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  for (const [i, prefix] of PREFIXES.entries()) {
    for (const width of [1280, 390, 360]) {
      const context = await sized(browser, baseURL!, width);
      const page = await context.newPage();
      await checkNumber(page, `+34 612 34 98 ${i}${WIDTHS.indexOf(width)}`, uniqueEmail('desk'), `${prefix}/`);
      const pay = page.getByTestId('pay-step').getByRole('button', { name: /^(Pay|Pagar|Bayar) / });
      await expect(pay).toBeVisible();
      await page.waitForTimeout(600);
      if (width === 1280) {
        const box = (await pay.boundingBox())!;
        expect(
          box.y + box.height,
          `${prefix || 'en'}: Pay ends at ${Math.round(box.y + box.height)} px`,
        ).toBeLessThanOrEqual(800);
        const facts = (await page.locator('section[aria-labelledby="facts-title"]').boundingBox())!;
        expect(facts.x + facts.width, 'the facts stand left of the pay step').toBeLessThanOrEqual(box.x);
      }
      await shot(page, `identified${prefix.replace('/', '-') || '-en'}-${width}`);
      await context.close();
    }
  }
});
