import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, uniqueEmail } from './helpers';

// The buyer's receipt of what they agreed to at Pay (/dashboard/billing/consent/): reached from Billing, readable and
// printable (order reference, terms with their version, prices as money, time), and downloadable as a JSON file
// without the API's envelope.

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as {
    Billing: { consentRecordsOpen: string };
    ConsentReceipts: { heading: string; print: string; download: string; order: string };
  };

test('Billing leads to a readable, printable receipt of what the buyer agreed to, and its JSON download', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('receipt');
  const token = await buyThroughApi(page.request, '+1 415 555 2667', email);
  await page.context().addCookies([{ name: 'token', value: token, url: baseURL! }]);
  const [order] = await query<{ reference: string; id: string }>(
    'select o.reference, o.id from orders o join users u on u.id = o.user_id where u.email = $1',
    [email],
  );
  const en = catalogue('en');

  await page.goto('/dashboard/billing/');
  await page.getByRole('link', { name: en.Billing.consentRecordsOpen }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing\/consent\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.ConsentReceipts.heading);
  const receipt = page.getByTestId('consent-receipt');
  await expect(receipt).toHaveCount(1);
  await expect(receipt.getByRole('heading', { level: 2 })).toHaveText(`Order ${order.reference}`);
  await expect(receipt.getByTestId('receipt-trial')).toHaveText(/^US\$\d+\.\d\d$/);
  await expect(receipt.getByTestId('receipt-monthly')).toHaveText(/^US\$\d+\.\d\d$/);
  await expect(receipt.getByTestId('receipt-version')).toHaveText(/^terms-of-use@[0-9a-f]{12}$/);
  await expect(receipt.getByTestId('receipt-terms')).toContainText('I am 18 or older and accept the terms of use');
  await expect(receipt.getByTestId('receipt-time')).toContainText(/\d{4}/);
  await expect(page.getByText(order.id)).toHaveCount(0);

  // The download: the same receipts, a JSON array (no envelope), money as decimal strings with their currency.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: en.ConsentReceipts.download }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('consent-receipts.json');
  const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(Array.isArray(file)).toBe(true);
  expect(file[0]).toMatchObject({
    orderReference: order.reference,
    trialPrice: { amount: expect.stringMatching(/^\d+\.\d\d$/), currency: 'USD' },
    monthlyPrice: { amount: expect.stringMatching(/^\d+\.\d\d$/), currency: 'USD' },
  });
  expect(JSON.stringify(file)).not.toContain(order.id);

  // Printed, the receipt stands alone: no site header, tabs or Print button on the paper.
  await page.emulateMedia({ media: 'print' });
  await expect(receipt).toBeVisible();
  await expect(page.locator('body > header').first()).toBeHidden();
  await expect(page.getByRole('button', { name: en.ConsentReceipts.print })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // The same receipt in es, id and en-PH: money and dates in the reader's language, the terms as they were shown.
  for (const [prefix, lang, trial] of [
    ['/es', 'es', /^\d+,\d\d\sUS\$$/],
    ['/id', 'id', /^US\$\s?\d+,\d\d$/],
    ['/ph', 'en', /^US\$\d+\.\d\d$/],
  ] as const) {
    await page.goto(`${prefix}/dashboard/billing/consent/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(catalogue(lang).ConsentReceipts.heading);
    await expect(page.getByTestId('receipt-trial')).toHaveText(trial);
    await expect(page.getByTestId('receipt-terms')).toHaveAttribute('lang', 'en');
  }

  if (process.env.SHOTS) {
    for (const prefix of ['', '/es', '/id', '/ph']) {
      for (const width of [360, 390, 1280]) {
        await page.setViewportSize({ width, height: width < 1000 ? 800 : 900 });
        await page.goto(`${prefix}/dashboard/billing/consent/`);
        await expect(page.getByTestId('consent-receipt')).toBeVisible();
        const name = `receipt${prefix.replace('/', '-') || '-en'}-${width}`;
        await page.screenshot({ path: `test-results/shots/${name}.png`, fullPage: true });
        if (width === 390) {
          await page.goto(`${prefix}/dashboard/billing/`);
          await expect(page.getByTestId('consent-records')).toBeVisible();
          await page.screenshot({
            path: `test-results/shots/billing${prefix.replace('/', '-') || '-en'}-390.png`,
            fullPage: true,
          });
        }
      }
    }
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/dashboard/billing/consent/');
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: 'test-results/shots/receipt-en-print.png', fullPage: true });
    await page.pdf?.({ path: 'test-results/shots/receipt-en.pdf' }).catch(() => undefined);
  }
});
