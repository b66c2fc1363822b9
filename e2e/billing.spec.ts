import { expect, test } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, checkNumber, payWithCard, startPayment, uniqueEmail } from './helpers';

test('home → number identified → first-order discount (no countdown) → pay 4242 → /paystatus success → dashboard', async ({
  page,
}) => {
  const email = uniqueEmail('flow');
  await checkNumber(page, '+1 415 555 2690', email);
  await expect(page.getByRole('heading', { name: 'Number identified' })).toBeVisible();
  const step = page.getByTestId('pay-step');
  // The discount is stated with its rule and no time limit: no timer, no "ends in" (Directive 2005/29/EC, Annex I.7).
  await expect(step.getByTestId('first-order')).toHaveText(
    'First-order discount: US$0.50 instead of US$0.99' +
      '50% off the trial of your first order, once per browser and e-mail address. No time limit.',
  );
  await expect(step.getByRole('timer')).toHaveCount(0);
  await expect(step.getByTestId('offer-countdown')).toHaveCount(0);
  await expect(step).not.toContainText(/ends in|expires|minutes left/i);
  await page.waitForTimeout(1500);
  await expect(step.getByTestId('first-order')).toContainText('First-order discount: US$0.50 instead of US$0.99');
  await expect(step.getByTestId('price-line')).toContainText(
    'US$0.50 for 24 hours, then US$49.99 per month. It renews every month until you cancel',
  );
  await expect(step.getByText('Your card statement will show: CHAMSPY DEMO')).toBeVisible();
  // The offer price and the struck regular price side by side, above the terms.
  const offer = step.getByTestId('offer-price');
  await expect(offer).toContainText('US$0.50');
  await expect(offer.locator('s')).toHaveText('US$0.99');
  const [price, struck] = [await offer.locator('span').first().boundingBox(), await offer.locator('s').boundingBox()];
  expect(Math.abs(price!.y + price!.height - (struck!.y + struck!.height))).toBeLessThan(12);
  await startPayment(page);
  await expect(page).toHaveURL(/\/checkout\/\?order=/);
  await expect(page.getByText('US$0.50 for 24 hours, then US$49.99 per month')).toBeVisible();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/paystatus\/\?order=/);
  // Signed in by the payment: one button, to the request's map; no "Log in" for someone already signed in.
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Open your request' }).click();
  await expect(page).toHaveURL(/\/map\/\?id=[0-9a-f-]{36}$/);
});

test('the 3-D Secure card asks for authentication; completing it pays', async ({ page }) => {
  await checkNumber(page, '+1 415 555 2691', uniqueEmail('threeds'));
  await startPayment(page);
  await payWithCard(page, '4000 0027 6000 3184');
  await expect(page.getByRole('heading', { name: 'Confirm this payment with your bank' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toContainText('Visa •••• 3184');
});

test('insufficient funds cancels the order; the page offers to start again', async ({ page }) => {
  await checkNumber(page, '+1 415 555 2692', uniqueEmail('funds'));
  await startPayment(page);
  await payWithCard(page, '4000 0000 0000 9995');
  await expect(page.getByText('Order cancelled')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start again' })).toBeVisible();
});

test('the wallet redirect: approved pays, cancelled comes back cancelled', async ({ page }) => {
  await checkNumber(page, '+1 415 555 2693', uniqueEmail('wallet-ok'));
  await startPayment(page, 'Wallet');
  await expect(page).toHaveURL(/\/checkout\/wallet\/\?order=/);
  await expect(page.getByRole('heading', { name: 'Sandbox wallet' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve and pay' }).click();
  await expect(page).toHaveURL(/\/paystatus\/\?order=/);
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toContainText('paid with your wallet on');

  await page.context().clearCookies();
  await checkNumber(page, '+1 415 555 2694', uniqueEmail('wallet-no'));
  await startPayment(page, 'Wallet');
  await page.getByRole('button', { name: 'Cancel and return' }).click();
  await expect(page.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(page.getByText('Nothing was charged.')).toBeVisible();
});

test('cancel from the billing page: confirm, access kept until the period ends', async ({ page }) => {
  await buyThroughApi(page.request, '+14155552695', uniqueEmail('billing-cancel'));
  // page.request shares the context's cookies: the session cookie of the payment is set.
  await page.goto('/dashboard/billing/');
  await expect(page.getByTestId('subscription-status')).toHaveText('Trial');
  await expect(page.getByText(/Next billing date:/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByTestId('billing-notice')).toContainText('Cancelled. You keep access until');
  await expect(page.getByText(/Ends on .*; nothing more will be charged\./)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
});

test('after a refund: Buy again instead of New request; a refused refund says why and links to support', async ({
  page,
}) => {
  await buyThroughApi(page.request, '+14155552697', uniqueEmail('refund-then'));
  await page.goto('/dashboard/billing/');
  await expect(page.getByTestId('order-reference')).toHaveText(/^CH-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
  await page.getByRole('button', { name: 'Request a refund' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByTestId('billing-notice')).toContainText('Refund of US$0.99 issued.');
  // Buy again carries the number of the last order, so the locate box opens with it.
  await expect(page.getByTestId('subscription-ended').getByRole('link', { name: 'Buy again' })).toHaveAttribute(
    'href',
    '/?buy=again&phone=%2B1%20415%20555%202697#top',
  );
  await page.goto('/dashboard/locations/');
  await expect(page.getByRole('link', { name: 'New request' })).toHaveCount(0);
  // Signed in, Buy again reaches the home page's locate box (a signed-in visitor of `/` is otherwise sent back to
  // My locations), by client-side navigation and by a full page load alike.
  await page.getByTestId('buy-again').click();
  await expect(page).toHaveURL(/\/\?buy=again&phone=[^#]+#top$/);
  await expect(page.getByRole('button', { name: 'Check number' })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/\?buy=again&phone=[^#]+#top$/);
  await expect(page.getByRole('button', { name: 'Check number' })).toBeVisible();

  // A second order whose request was shared: the refund is refused, with the reason and the way to support.
  await buyThroughApi(page.request, '+14155552698', uniqueEmail('refund-refused'));
  await query(
    `update location_requests set first_shared_at = now() where target_e164 = '+14155552698' and first_shared_at is null`,
  );
  await page.goto('/dashboard/billing/');
  await page.getByRole('button', { name: 'Request a refund' }).click();
  const notice = page.getByTestId('billing-notice');
  await expect(notice).toContainText('A location was already shared for this subscription');
  await expect(notice.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact-us/');
});

test('cancel from /cancel without signing in: e-mailed link, then confirm', async ({ page, browser }) => {
  const email = uniqueEmail('nologin');
  const buyer = await browser.newContext();
  await buyThroughApi(buyer.request, '+14155552696', email);
  await buyer.close();

  await page.goto('/cancel/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send me the link' }).click();
  await expect(page.getByText('If a subscription exists for this e-mail, we have sent it a link.')).toBeVisible();

  await page.goto('/dev/outbox/');
  const mail = page
    .locator(`[data-testid="outbox-email"][data-recipient="${email}"]`)
    .filter({ hasText: 'confirm the cancellation' });
  const link = await mail.getByRole('link', { name: /\/cancel\/\?token=/ }).getAttribute('href');
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Confirm the cancellation' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel my subscription' }).click();
  await expect(page.getByText(/Your subscription is cancelled\. You keep access until/)).toBeVisible();
});
