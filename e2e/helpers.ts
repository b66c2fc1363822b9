import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { query } from './db';

/**
 * Collects console errors and uncaught exceptions of `page`, each prefixed with the page's URL; the
 * returned array fills as the page runs.
 */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  return errors;
}

/** A unique buyer e-mail per test. */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * Home → locate box: enters phone, the requester name (`name`) and e-mail, accepts the terms, checks the
 * number; the facts must show.
 */
export async function checkNumber(page: Page, phone: string, email: string, path = '/', name = 'Anna (your sister)') {
  await page.goto(path);
  await page.getByLabel(/phone number|número de teléfono|nomor telepon/i).fill(phone);
  await page.getByLabel(/your name|tu nombre|nama anda/i).fill(name);
  await page.getByLabel(/e-mail|correo|email/i).fill(email);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: /check number|comprobar número|periksa nomor/i }).click();
}

/** After the number is identified: picks `method` in the pay step, checks the price terms and presses Pay. */
export async function startPayment(page: Page, method: 'Card' | 'Wallet' = 'Card') {
  const step = page.getByTestId('pay-step');
  await expect(step.getByTestId('price-line')).toContainText('for 24 hours, then US$49.99 per month');
  await step.getByRole('radio', { name: method }).check();
  await step.getByRole('button', { name: /^Pay / }).click();
}

/** On the sandbox checkout: fills the card form with `card` and pays. */
export async function payWithCard(page: Page, card: string) {
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Postal code').fill('94107');
  await page.getByRole('button', { name: /^(Pay|Try again)/ }).click();
}

/**
 * Opens the consent `link` as the phone's owner does, in a browser of their own (no buyer's cookies), and expects the
 * consent page in the owner's language: its Share button named `share`.
 */
export async function expectOwnerCanShare(browser: Browser, link: string, share: string): Promise<void> {
  const owner = await browser.newContext();
  const page = await owner.newPage();
  await page.goto(link);
  await expect(page.getByRole('button', { name: share })).toBeVisible();
  await owner.close();
}

/** Reads the consent link of the newest SMS to `e164` from /dev/outbox. */
export async function consentLinkFromOutbox(page: Page, e164: string): Promise<string> {
  await page.goto('/dev/outbox/');
  const sms = page.locator(`[data-testid="outbox-sms"][data-recipient="${e164}"]`).first();
  await expect(sms).toBeVisible();
  const href = await sms.getByRole('link').first().getAttribute('href');
  expect(href).toMatch(/\/location\/\?c=[A-Za-z0-9_-]{22,}$/);
  return href!;
}

/**
 * Pays for `phone` through the API as a client would (order + sandbox payment) and returns the session cookie value.
 */
export async function buyThroughApi(request: APIRequestContext, phone: string, email: string): Promise<string> {
  const headers = { website_type: '7' };
  const order = await request.post('/api_f/v1/portal/order', {
    headers,
    form: { email, phone, requesterName: 'Anna (your sister)', terms: 'true', startNow: 'true' },
  });
  expect(order.status()).toBe(201);
  const { obj } = await order.json();
  const pay = await request.post(`/api_f/v1/portal/order/${obj.code}/sandboxPay`, {
    headers,
    form: { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', zip: '94107' },
  });
  expect(pay.status()).toBe(200);
  const cookie = pay.headers()['set-cookie'] ?? '';
  const token = /(?:^|\n)token=([^;]+)/.exec(cookie)?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/**
 * A signed-in buyer of `e164` on the map of its request (under the locale `prefix`), and the owner's page from Madrid
 * on the consent link, which is in the language of the owner's number.
 */
export async function liveShare(browser: Browser, baseURL: string, phone: string, e164: string, prefix = '') {
  const buyer = await browser.newContext();
  const token = await buyThroughApi(buyer.request, phone, uniqueEmail('live'));
  await buyer.addCookies([{ name: 'token', value: token, url: baseURL }]);
  const map = await buyer.newPage();
  const link = await consentLinkFromOutbox(map, e164);
  const [{ id }] = await query<{ id: string }>(
    'select id from location_requests where target_e164 = $1 order by created_at desc limit 1',
    [e164],
  );
  const owner = await browser.newContext({
    geolocation: { latitude: 40.41678, longitude: -3.70379, accuracy: 10 },
    permissions: ['geolocation'],
  });
  const ownerPage = await owner.newPage();
  // The consent link is in the language of the owner's number (its own prefix).
  const url = new URL(link);
  await ownerPage.goto(`${url.pathname}${url.search}`);
  await map.goto(`${prefix}/map/?id=${id}`);
  return { buyer, map, owner, ownerPage, id };
}

/** Words of three letters or more in capitals only, other than acronyms (FAQ, CVC, SMS, GPS, IP). */
export async function shoutingButtons(page: Page): Promise<string[]> {
  const texts = await page
    .locator('button:visible, [role=button]:visible, input[type=submit]:visible')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText || (el as HTMLInputElement).value || ''));
  return texts.filter((text) =>
    (text.match(/\p{L}{3,}/gu) ?? []).some((w) => w === w.toUpperCase() && !['FAQ', 'CVC', 'SMS', 'GPS'].includes(w)),
  );
}
