import { expect, test, type Browser, type Page } from '@playwright/test';
import { buyThroughApi, checkNumber, consoleErrors, payWithCard, startPayment, uniqueEmail } from './helpers';

// The buyer's and the owner's screens on a phone, in every locale, signed in and out.

const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36',
};
const PREFIXES = ['', '/id', '/es', '/ph'];
const PAGES = [
  '/',
  '/phone-finder/',
  '/ip-tracker/',
  '/username-lookup/',
  '/login/',
  '/faq/',
  '/contact-us/',
  '/cancel/',
  '/withdraw/',
  '/location/?c=unknown-code-000000000',
  '/pay-success/',
  '/checkout/',
  '/paystatus/',
];
const SIGNED_IN_PAGES = [
  '/dashboard/locations/',
  '/dashboard/billing/',
  '/dashboard/data-leaks/',
  '/dashboard/account/',
  '/getLocation/',
];

/** A phone context `width` px wide. */
async function phone(browser: Browser, baseURL: string, width = 390) {
  return browser.newContext({ ...PHONE, baseURL, viewport: { width, height: 800 } });
}

/** Whether the document is wider than the viewport (a horizontal scroll). */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Visible tap targets smaller than WCAG 2.2 allows: header controls, form controls and buttons under
 * 44×44 px, any other target under 24×24 px. A checkbox or radio is measured with its label (which toggles it); links
 * inside running text are exempt (WCAG 2.5.8 "inline"), as are visually hidden elements.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const nodes = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type=hidden]), select, textarea, summary',
    );
    for (const node of nodes) {
      const el =
        node instanceof HTMLInputElement && (node.type === 'checkbox' || node.type === 'radio')
          ? (node.closest('label') ?? node)
          : node;
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (rect.width <= 1 || rect.height <= 1 || style.visibility === 'hidden') continue;
      if (el.closest('.sr-only, [aria-hidden="true"], dialog:not([open]), details:not([open]) > :not(summary)'))
        continue;
      const parent = el.parentElement;
      const inline =
        el.tagName === 'A' &&
        style.display === 'inline' &&
        !!parent &&
        (parent.textContent ?? '').trim().length > (el.textContent ?? '').trim().length + 2;
      if (inline) continue;
      const large = !!el.closest('header') || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'LABEL'].includes(el.tagName);
      const min = large ? 44 : 24;
      if (rect.width + 0.5 < min || rect.height + 0.5 < min) {
        out.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(rect.width)}×${Math.round(rect.height)} < ${min}`,
        );
      }
    }
    return out;
  });
}

/**
 * Opens `url` and returns what is wrong with its layout at this width (sideways scroll, small targets), each line
 * prefixed with the URL; saves a screenshot of the page under test-results/screens/ (`shot` names it).
 */
async function layoutProblems(page: Page, url: string, shot: string): Promise<string[]> {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `test-results/screens/${shot}-${url.replace(/[^a-z0-9]+/gi, '_')}.png` });
  const wide = await overflow(page);
  return [...(wide > 0 ? [`${wide}px wider than the screen`] : []), ...(await smallTargets(page))].map(
    (problem) => `${url}: ${problem}`,
  );
}

/**
 * What keeps a visitor at `url` from the locate box on the first screen: the phone field or Check number not wholly
 * above the cookie bar (or the screen's edge), or not what a tap at its centre reaches. Empty when all is well.
 */
async function firstScreenProblems(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  await expect(page.getByTestId('cookie-banner')).toBeVisible();
  await expect(page.getByRole('button', { name: /check number|comprobar número|periksa nomor/i })).toBeVisible();
  const seen = await page.evaluate(() => {
    const bar = document.querySelector('[data-testid="cookie-banner"]')!.getBoundingClientRect();
    return ['#phone', '[data-btn-id="locate_check"]'].map((selector) => {
      const el = document.querySelector<HTMLElement>(selector)!;
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        selector,
        top: Math.round(r.top),
        bottom: Math.round(r.bottom),
        limit: Math.round(Math.min(bar.top, innerHeight)),
        reached: !!hit && (hit === el || el.contains(hit)),
      };
    });
  });
  return seen
    .filter((s) => s.top < 0 || s.bottom > s.limit || !s.reached)
    .map((s) => `${url}: ${s.selector} at ${s.top}–${s.bottom} px, bar or screen edge at ${s.limit} px`);
}

test.describe('on a phone', () => {
  test('no page scrolls sideways at 360 px and every target is large enough, signed out, in every locale', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const context = await phone(browser, baseURL!, 360);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const problems: string[] = [];
    for (const prefix of PREFIXES) {
      for (const path of PAGES) problems.push(...(await layoutProblems(page, `${prefix}${path}`, '360-signed-out')));
    }
    expect(problems).toEqual([]);
    // The unknown consent code is answered 404 by the API on purpose; the browser logs that response.
    expect(errors.filter((e) => !/location\/\?c=unknown-code.*status of 404/.test(e))).toEqual([]);
    await context.close();
  });

  test('a visitor from an ad sees the phone field and Check number on the first screen, not covered by the cookie bar, at 390 and 360 px, in every locale', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const problems: string[] = [];
    // A common large phone and a small Android one (Galaxy S9's 360×740, the smallest in wide use).
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 360, height: 740 },
    ]) {
      // A fresh context: no cookie choice yet, so the cookie bar shows.
      const context = await browser.newContext({ ...PHONE, baseURL, viewport });
      const page = await context.newPage();
      for (const prefix of PREFIXES) {
        for (const path of ['/', '/locate/', '/phone-locate/', '/gps-locator/']) {
          problems.push(
            ...(await firstScreenProblems(page, `${prefix}${path}`)).map(
              (p) => `${viewport.width}×${viewport.height} ${p}`,
            ),
          );
        }
      }
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  test('the cookie bar is one slim row at 360 px (at most 64 px tall) with both choices alike, in every locale', async ({
    browser,
    baseURL,
  }) => {
    const context = await phone(browser, baseURL!, 360);
    const page = await context.newPage();
    for (const prefix of PREFIXES) {
      await page.goto(`${prefix}/faq/`);
      const bar = page.getByTestId('cookie-banner');
      await expect(bar).toBeVisible();
      const box = (await bar.boundingBox())!;
      expect(box.height, `${prefix}/faq/`).toBeLessThanOrEqual(64);
      const [essential, accept] = await bar.getByRole('button').all();
      const [a, b] = [(await essential.boundingBox())!, (await accept.boundingBox())!];
      // Equally prominent: the same size and the same look.
      expect([a.width, a.height]).toEqual([b.width, b.height]);
      expect(await essential.getAttribute('class')).toBe(await accept.getAttribute('class'));
    }
    await context.close();
  });

  test('signed in: the header menu and the dashboard tabs reach locations, billing and account, in every locale', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const context = await phone(browser, baseURL!, 360);
    // Bought in this browser: the payment's answer sets the session cookies (token, userInfo) as it does for a buyer.
    await buyThroughApi(context.request, '+14155552673', uniqueEmail('screens'));
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const problems: string[] = [];
    for (const prefix of PREFIXES) {
      for (const path of SIGNED_IN_PAGES) {
        problems.push(...(await layoutProblems(page, `${prefix}${path}`, '360-signed-in')));
        await expect(page.getByTestId('account-menu')).toBeVisible();
      }
    }
    expect(problems).toEqual([]);

    // The tabs: the current page is marked, Billing is one tap away.
    await page.goto('/es/dashboard/locations/');
    const tabs = page.getByTestId('dashboard-nav');
    await expect(tabs.getByRole('link', { name: 'Mis ubicaciones' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Facturación' }).click();
    await expect(page).toHaveURL(/\/es\/dashboard\/billing\/$/);
    await expect(page.getByTestId('dashboard-nav').getByRole('link', { name: 'Facturación' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // The header menu has the same three places and Sign out.
    await page.getByTestId('account-menu').locator('summary').click();
    const menu = page.getByTestId('account-menu');
    for (const name of ['Mis ubicaciones', 'Facturación', 'Mi cuenta', 'Cerrar sesión']) {
      await expect(menu.getByRole(name === 'Cerrar sesión' ? 'button' : 'link', { name })).toBeVisible();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('at 360 px the dashboard tabs show every label whole and the header dropdowns stay on the screen, in every locale', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const context = await phone(browser, baseURL!, 360);
    await buyThroughApi(context.request, '+14155552676', uniqueEmail('tabs'));
    const page = await context.newPage();
    for (const prefix of PREFIXES) {
      await page.goto(`${prefix}/dashboard/locations/`);
      const tabs = page.getByTestId('dashboard-nav').getByRole('link');
      // No HIBP key on this server: no Data leaks tab.
      await expect(tabs).toHaveCount(3);
      const cut = await tabs.evaluateAll((links) =>
        links
          .map((a) => ({ text: a.textContent, sw: a.scrollWidth, cw: a.clientWidth, r: a.getBoundingClientRect() }))
          .filter((t) => t.sw > t.cw || t.r.left < 0 || t.r.right > window.innerWidth)
          .map((t) => `${t.text}: ${t.sw}/${t.cw} at ${Math.round(t.r.left)}–${Math.round(t.r.right)}`),
      );
      expect(cut, prefix || '/').toEqual([]);
      // Each header dropdown (the section menu, the languages, the account) opens inside the screen.
      for (const summary of await page.locator('header details > summary:visible').all()) {
        await summary.click();
        const panel = summary.locator('xpath=..').locator('ul');
        const box = (await panel.boundingBox())!;
        expect(box.x, `${prefix} ${await summary.textContent()}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
        await summary.click();
      }
    }
    // A new request is a state, not an alert: when the SMS went, that it waits for the owner, until when the link works.
    await page.goto('/dashboard/locations/');
    await expect(page.getByTestId('notifications')).toHaveCount(0);
    await expect(page.getByTestId('row-updated')).toHaveCount(0);
    await expect(page.getByTestId('request-state')).toHaveText(
      /^Waiting for the owner · the link is valid until \d\d:\d\d [AP]M|^Waiting for the owner · the link is valid until \w{3} \d/,
    );
    await context.close();
  });

  test('/checkout/ and /paystatus/ without an order explain and lead back to the start', async ({ page }) => {
    for (const [path, home] of [
      ['/checkout/', '/#top'],
      ['/es/paystatus/', '/es/#top'],
      ['/id/checkout/?order=unknown-order-code-0000', '/id/#top'],
    ]) {
      await page.goto(path);
      const notice = page.getByTestId('no-order');
      await expect(notice.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(notice.getByRole('link')).toHaveAttribute('href', home);
    }
    await page.goto('/paystatus/');
    await expect(page.getByRole('heading', { name: 'No order to show' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/#top$/);
  });

  test('the success page after paying shows the signed-in header without a reload', async ({ browser, baseURL }) => {
    const context = await phone(browser, baseURL!);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    await checkNumber(page, '+1 415 555 2674', uniqueEmail('success-header'));
    await startPayment(page);
    await payWithCard(page, '4242424242424242');
    await expect(page.getByRole('heading', { name: /^Payment received/ })).toBeVisible();
    await expect(page.getByTestId('account-menu')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screens/phone-pay-success.png', fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});

test.describe('dead ends', () => {
  test('signed-out pages that need a session say "please sign in" and come back after signing in', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('dead-end');
    const token = await buyThroughApi(request, '+14155552675', email);
    // The buyer chooses a password, so they can sign in on a new browser.
    const changed = await request.put('/api_f/v1/admin/user/password', {
      headers: { website_type: '7', cookie: `token=${token}` },
      form: { password: 'x', newPassword: 'purple elephants dance' },
    });
    expect([200, 401, 403, 422]).toContain(changed.status());

    for (const path of ['/map/', '/reveal-location/', '/dashboard/locations/', '/dashboard/billing/']) {
      await page.goto(path);
      const prompt = page.getByTestId('sign-in-prompt');
      await expect(prompt).toContainText('Please sign in to see this page.');
      await expect(prompt).not.toContainText('ended');
      await expect(prompt.getByRole('link', { name: 'Sign in' })).toBeVisible();
    }
    await page.goto('/reveal-location/');
    await page.getByTestId('sign-in-prompt').getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login\/\?next=%2Freveal-location%2F$/);
  });

  test('/404/ answers 404 while unknown paths keep their redirect', async ({ request }) => {
    expect((await request.get('/404/', { maxRedirects: 0 })).status()).toBe(404);
    expect((await request.get('/es/404/', { maxRedirects: 0 })).status()).toBe(404);
    const unknown = await request.get('/es/no-such-page/', { maxRedirects: 0 });
    expect(unknown.status()).toBe(302);
    expect(unknown.headers().location).toBe('/es/');
  });
});

test('a chosen language is remembered: / goes to it, other URLs are served as asked', async ({ page, request }) => {
  // No choice: / is English.
  expect((await request.get('/', { maxRedirects: 0 })).status()).toBe(200);
  // Landing on /es/ from an ad is not a choice.
  await page.goto('/es/');
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.locator('summary', { hasText: 'Choose a language' }).click();
  await page.getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/es\/$/);
  await page.goto('/?utm_source=news');
  await expect(page).toHaveURL(/\/es\/\?utm_source=news$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  // Other URLs name their language and are not redirected.
  await page.goto('/faq/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // Choosing English again stops the redirect.
  await page.locator('summary', { hasText: 'Choose a language' }).click();
  await page.getByRole('link', { name: 'English', exact: true }).click();
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test.describe('national numbers', () => {
  for (const [prefix, typed, formatted, country, zone] of [
    ['/id', '081234567877', '0812-3456-7877', 'Indonesia', 'Waktu Indonesia Barat'],
    ['/ph', '09051234576', '0905 123 4576', 'Philippines', 'Philippine'],
  ] as const) {
    test(`${prefix}/ takes ${formatted} with the locale's country, formatted as typed`, async ({
      browser,
      baseURL,
    }) => {
      const context = await phone(browser, baseURL!);
      const page = await context.newPage();
      const errors = consoleErrors(page);
      await page.goto(`${prefix}/`);
      const field = page.locator('#phone');
      await field.pressSequentially(typed);
      await expect(field).toHaveValue(formatted);
      await expect(page.locator('#phone-hint')).toContainText(country);
      await page.locator('#requesterName').fill('Anna');
      await page.locator('#email').fill(uniqueEmail('national'));
      await page.getByRole('checkbox').check();
      await page.locator('button[data-btn-id="locate_check"]').click();
      await expect(page.getByTestId('fact-country')).toContainText(country);
      await expect(page.getByTestId('fact-timeZones')).toContainText(zone);
      await expect(page.getByTestId('fact-timeZones')).toContainText(/\(\d?\d[.:]\d\d( [AP]M)?\)/);
      await page.screenshot({
        path: `test-results/screens/phone-national${prefix.replace('/', '-')}.png`,
        fullPage: true,
      });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('en asks for + and the country code at once; es takes a Spanish national number too', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#phone-hint')).toHaveText('Start with + and the country code, e.g. +44 7400 123456.');
    await page.goto('/es/');
    await expect(page.locator('#phone-hint')).toHaveText(
      'Formato internacional con +, o un número nacional de España.',
    );
    await page.locator('#phone').pressSequentially('+4915123456781');
    await expect(page.locator('#phone')).toHaveValue('+49 1512 3456781');
    await expect(page.locator('#phone-hint')).toContainText('Alemania');
  });
});
