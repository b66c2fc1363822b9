import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, consentLinkFromOutbox, consoleErrors, uniqueEmail } from './helpers';

// The phone owner's safety centre in Chromium: reached from a consent page's "All requests for this number", the list
// read from the server (JavaScript off too), Stop everything now with its confirmation and receipt, and the quick exit
// that leaves no way back.

/**
 * A number of its own per run (the database outlives a retry), in a block no other spec uses (+1 628 555 NNNN): the
 * owner stops everything here, which would refuse every later order to that number in another spec.
 */
const NNNN = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
const PHONE = `+1 628 555 ${NNNN}`;
const E164 = `+1628555${NNNN}`;
const NEUTRAL = 'https://www.google.com/';

test('from a consent link: every request to the number, stop everything, and a quick exit without a way back', async ({
  browser,
}) => {
  // Two requesters ask the same number; the owner shares with the first and leaves the second unanswered.
  const first = await browser.newContext();
  await buyThroughApi(first.request, PHONE, uniqueEmail('safety-a'));
  const link = await consentLinkFromOutbox(await first.newPage(), E164);
  const second = await browser.newContext();
  await buyThroughApi(second.request, PHONE, uniqueEmail('safety-b'));

  const owner = await browser.newContext({
    geolocation: { latitude: 40.4168, longitude: -3.7038, accuracy: 10 },
    permissions: ['geolocation'],
    viewport: { width: 360, height: 740 },
  });
  const page = await owner.newPage();
  const errors = consoleErrors(page);
  // The neutral page of the quick exit, served here so the test needs no network.
  await owner.route(`${NEUTRAL}**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Search</title><p>neutral</p>' }),
  );
  await page.goto(link);
  await page.getByRole('button', { name: 'Share my location' }).click();
  await expect(page.getByTestId('last-sent')).toBeVisible();

  await page.getByRole('link', { name: 'All requests for this number' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Requests to your number' })).toBeVisible();
  // The code left the address bar: the page was loaded again without it.
  await expect(page).toHaveURL(/\/safety\/$/);
  const items = page.getByTestId('safety-request');
  // Opened with a consent link, which the requester may hold too: only that link's requester's requests.
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('link-scope')).toBeVisible();
  // The whole centre needs a code sent by SMS to the number (asked here through the API as the entry form does).
  const headers = { website_type: '7' };
  expect((await owner.request.post('/api_f/v1/safety/code', { headers, form: { phone: E164 } })).status()).toBe(200);
  const [{ body }] = await query<{ body: string }>(
    "select body from outbound_messages where recipient = $1 and template = 'safety_code' order by created_at desc limit 1",
    [E164],
  );
  const code = /\b(\d{6})\b/.exec(body)![1];
  const opened = await owner.request.post('/api_f/v1/safety/session', { headers, form: { phone: E164, code } });
  expect(opened.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('link-scope')).toHaveCount(0);
  await expect(items).toHaveCount(2);
  // Newest first: the second requester's request waits; the first one shares.
  await expect(items.nth(0).getByTestId('request-state')).toHaveText(
    /^(Waiting for the SMS to go out|SMS sent, link not opened)$/,
  );
  // Leaving the consent page hid it, which pauses the share (it resumes when the page is back).
  await expect(items.nth(1).getByTestId('request-state')).toHaveText(/^Sharing/);
  await expect(items.nth(1).getByTestId('reference')).toHaveText(/^SR-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
  await expect(items.nth(1)).toContainText('Anna (your sister)');
  await expect(items.nth(1)).toContainText(/Account: .+•••@example\.com/);
  // A single-purpose page like the consent page: no site navigation.
  await expect(page.getByTestId('owner-header')).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  // Nothing wider than the phone's 360 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: 'test-results/safety-360.png', fullPage: true });

  // The other languages at 360 px, in another tab (this one's history is checked at the end).
  const tab = await owner.newPage();
  for (const [prefix, title] of [
    ['/es', 'Solicitudes a tu número'],
    ['/id', 'Permintaan ke nomor Anda'],
    ['/ph', 'Requests to your number'],
  ]) {
    await tab.goto(`${prefix}/safety/`);
    await expect(tab.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(tab.getByTestId('safety-request')).toHaveCount(2);
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const scan = await new AxeBuilder({ page: tab }).analyze();
    expect(scan.violations.map((v) => `${prefix} ${v.id}`)).toEqual([]);
  }
  await tab.screenshot({ path: 'test-results/safety-360-ph.png', fullPage: true });
  await tab.goto('/id/safety/');
  await tab.screenshot({ path: 'test-results/safety-360-id.png', fullPage: true });
  await tab.close();

  // Readable without JavaScript: the list is rendered by the server.
  const cookies = await owner.cookies();
  const plain = await browser.newContext({ javaScriptEnabled: false });
  await plain.addCookies(cookies.filter((c) => c.name.endsWith('safety_token')));
  const plainPage = await plain.newPage();
  await plainPage.goto('/safety/');
  await expect(plainPage.getByTestId('safety-request')).toHaveCount(2);
  await expect(plainPage.getByTestId('request-state').nth(1)).toHaveText(/^Sharing/);
  await plain.close();

  // Stop everything now asks first, then says what it did.
  await page.getByRole('button', { name: 'Stop everything now' }).click();
  await expect(page.getByText('Stop every share and decline every waiting request to this number now?')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('safety-receipt').first()).toHaveText(
    'Done. 1 share stopped; 1 waiting request declined. The requesters see “stopped by the owner”.',
  );
  await expect(items.nth(0).getByTestId('request-state')).toHaveText('Declined');
  await expect(items.nth(1).getByTestId('request-state')).toHaveText('Stopped');
  // Quick exit: one tap to a neutral page that replaced this one in the history, and the session is over.
  await page.getByRole('link', { name: 'Quick exit' }).click();
  await expect(page).toHaveURL(NEUTRAL);
  await page.goBack();
  await expect(page).not.toHaveURL(/\/safety\//);
  await expect.poll(async () => (await owner.request.get('/api_f/v1/safety')).status()).toBe(401);
  expect(errors).toEqual([]);
  await owner.close();
  await first.close();
  await second.close();
});
