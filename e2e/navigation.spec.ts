import { expect, test, type Page } from '@playwright/test';

// Site links are client-side navigations (components/ui/link.tsx, next/link): the page is not loaded again, and a page
// whose text is rendered by server components (the home page's sections, a landing page's intro, the footer) shows
// all of it when reached that way (docs/decisions/0012-static-text-is-server-components.md).

/** Marks the current document, so a later check can tell a client-side navigation (mark kept) from a page load. */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test('a client-side link to the home page shows its sections', async ({ page }) => {
  await page.goto('/es/faq/');
  await page.waitForLoadState('load');
  await markDocument(page);
  const operationLogs: string[] = [];
  page.on('request', (r) => r.url().endsWith('/api_f/v1/operationLog') && operationLogs.push(r.postData() ?? ''));
  // The product's name in the header: the home page's link.
  await page.locator('header nav a[href^="/es/"]').first().click();
  await expect(page).toHaveURL(/\/es\/$/);
  await expect(page.locator('#how li')).toHaveCount(3);
  await expect(page.locator('#advantages li')).toHaveCount(4);
  await expect(page.locator('#features li')).not.toHaveCount(0);
  await expect(page.locator('#faq [data-testid="faq-item"]')).toHaveCount(6);
  await expect(page.locator('[data-testid="situations"] figure')).not.toHaveCount(0);
  await expect(page.locator('#contact a[href^="/es/contact-us/"]')).toBeVisible();
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('footer a[href^="/es/about-us/"]')).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
  // The page reached this way logs its own view (components/site/tracker.tsx).
  await expect.poll(() => operationLogs.some((body) => body.includes('landing_view'))).toBe(true);
});

test('a client-side link from the home page to a page of text and back keeps every section', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('load');
  await markDocument(page);
  await page.locator('footer a[href^="/about-us/"]').click();
  await expect(page).toHaveURL(/\/about-us\/$/);
  await expect(page.locator('main h1')).toBeVisible();
  // The layout's language switcher follows the new address.
  await expect(page.locator('header a[hreflang="es"]')).toHaveAttribute('href', '/es/about-us/');
  await page.locator('footer a[href^="/faq/"]').click();
  await expect(page).toHaveURL(/\/faq\/$/);
  await expect(page.locator('main [data-testid="faq-item"]')).not.toHaveCount(0);
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/localhost:\d+\/$/);
  await expect(page.locator('#faq [data-testid="faq-item"]')).toHaveCount(6);
  await expect(page.locator('#features li')).not.toHaveCount(0);
  expect(await sameDocument(page)).toBe(true);
});

test('a header link to a landing page from another page shows its heading and details', async ({ page }) => {
  await page.goto('/id/about-us/');
  await page.waitForLoadState('load');
  await markDocument(page);
  // The header's section link to the home page's price: a client-side navigation, then a scroll to the section.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('header nav ul a[href="/id/#price"]').first().click();
  await expect(page).toHaveURL(/\/id\/#price$/);
  await expect(page.locator('main h1')).toBeVisible();
  await expect(page.locator('main ul li svg').first()).toBeVisible();
  await expect(page.locator('#price')).toBeInViewport();
  expect(await sameDocument(page)).toBe(true);
});
