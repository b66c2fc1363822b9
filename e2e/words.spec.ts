import { expect, test, type Page } from '@playwright/test';
import { PAGES, type PagePath } from '../lib/routing/pages';
import { query } from './db';
import { buyThroughApi, checkNumber, shoutingButtons, uniqueEmail } from './helpers';

/**
 * National numbers, the e-mail check at "Check number", tab titles and button words, in a real browser. The test server
 * runs on localhost, whose address has no country: only the page's locale can give one.
 */

/**
 * Answers the page's `GET /other/ipInfo` as for a visitor in `country` (this machine's address has none), after
 * `delayMs`; returns the list of the calls' URLs, filled as they are made.
 */
async function answerIpCountry(page: Page, country: string, delayMs = 0): Promise<string[]> {
  const asked: string[] = [];
  await page.route('**/api_f/v1/other/ipInfo*', async (route) => {
    asked.push(route.request().url());
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const place = { region: null, city: null, latitude: null, longitude: null, accuracyRadiusKm: null };
    await route.fulfill({
      json: {
        success: 1,
        msg: '',
        obj: { ip: '203.0.113.9', status: 'found', countryCode: country, ...place, mine: true },
      },
    });
  });
  return asked;
}

test.describe('national numbers', () => {
  test('612345678 on /es/ is a Spanish number', async ({ page }) => {
    await checkNumber(page, '612345678', uniqueEmail('es-national'), '/es/', 'Ana');
    await expect(page.getByRole('heading', { name: 'Número identificado' })).toBeVisible();
    await expect(page.locator('section[aria-labelledby=facts-title]')).toContainText('España');
    await expect(page.locator('section[aria-labelledby=facts-title]')).toContainText('+34 612 34 56 78');
  });

  test('on / (English, no IP country) a national number asks for the country code', async ({ page }) => {
    await checkNumber(page, '612345678', uniqueEmail('en-national'));
    await expect(page.locator('#phone-error')).toHaveText(
      'Add the country code at the start, e.g. +44 7400 123456 or +1 415 555 2671.',
    );
    await expect(page.getByTestId('pay-step')).toHaveCount(0);
  });

  test("the visitor's IP country is asked at the first touch of the box, not with the page, and then reads national numbers", async ({
    page,
  }) => {
    // This machine's address has no country: the answer for a visitor in Indonesia stands in for it.
    const asked = await answerIpCountry(page, 'ID');
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    await expect(page.locator('#phone-hint')).toHaveText('Start with + and the country code, e.g. +44 7400 123456.');
    await page.locator('#phone').focus();
    await expect(page.locator('#phone-hint')).toHaveText(
      'International format with +, or a national number from Indonesia.',
    );
    expect(asked).toHaveLength(1);
  });

  test('a check made before the IP country has answered waits for it', async ({ page }) => {
    // The answer comes a second after the first touch: the form is filled and checked before then.
    await answerIpCountry(page, 'ID', 1000);
    await checkNumber(page, '0812 3456 7890', uniqueEmail('ip-wait'));
    await expect(page.locator('section[aria-labelledby=facts-title]')).toContainText('Indonesia');
  });

  test('the phone finder reads 612345678 on /es/ as Spanish too', async ({ page }) => {
    await page.goto('/es/phone-finder/');
    await page.locator('#lookup-phone').fill('612345678');
    await page.locator('#lookup-phone').press('Enter');
    await expect(page.getByTestId('lookup-result')).toContainText('España');
  });
});

test('an e-mail that has an account is refused at Check number, with the sign-in link', async ({ page, request }) => {
  const email = uniqueEmail('registered');
  await buyThroughApi(request, '+14155552701', email);
  // Every test browses from 127.0.0.1: the suite's earlier Check number presses have spent checkEmail's per-IP limit
  // (a refused check is no verdict, and Pay checks again); start this one with a fresh count.
  await query(`DELETE FROM rate_limits WHERE key LIKE 'checkEmailPerIp:%'`);
  await checkNumber(page, '+34 612 34 56 78', email);
  await expect(page.locator('#email-error')).toHaveText('The email address you entered is already registered!');
  const link = page.getByRole('link', { name: 'Sign in to continue with this number' });
  await expect(link).toHaveAttribute('href', '/login/?redirect=getLocation&phone=%2B34612345678');
  await expect(page.getByTestId('pay-step')).toHaveCount(0);
});

/** Pages with their own tab title: every page of lib/routing/pages.ts but the development outbox. */
const ROUTES = (Object.keys(PAGES) as PagePath[]).filter((path) => path !== '/dev/outbox/');
/** Those the every-route sweep of e2e/page-sweep.spec.ts does not open (it checks the buttons of the others). */
const SIGNED_OUT_DEAD_ENDS = ROUTES.filter((path) => /^\/(checkout|dashboard)\//.test(path));

/**
 * The document's title as served (Next writes it into the HTML, streamed or in the head), as written there: React
 * escapes every title alike, so equal titles stay equal and different ones different without decoding.
 */
function servedTitle(html: string): string {
  return (/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '').trim();
}

for (const prefix of ['', '/es', '/id', '/ph']) {
  test(`every route in ${prefix || '/'} has its own tab title, and no button is written in capitals`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const titles = new Map<string, string>();
    for (const route of ROUTES) {
      const res = await page.request.get(`${prefix}${route}`);
      const title = servedTitle(await res.text());
      expect(title, `${prefix}${route}`).toMatch(/\S/);
      titles.set(route, title);
    }
    const byTitle = new Map<string, string[]>();
    for (const [route, title] of titles) byTitle.set(title, [...(byTitle.get(title) ?? []), route]);
    expect([...byTitle.values()].filter((routes) => routes.length > 1)).toEqual([]);
    for (const route of SIGNED_OUT_DEAD_ENDS) {
      await page.goto(`${prefix}${route}`);
      expect(await shoutingButtons(page), `${prefix}${route}`).toEqual([]);
    }
  });
}
