import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { query } from './db';
import { checkNumber, uniqueEmail } from './helpers';

// The honest subscription in every locale (docs/features.md "Payments and subscriptions"): pay by card and by wallet, the trial
// on Billing, cancel in one step, withdraw from the contract, a trial converting to a paid month with its receipt, and
// the automatic refund when nobody consented, each as the buyer sees it. Texts come from the catalogues
// (messages/*.json; en-PH uses the English one under /ph). The billing job runs once a minute in the server; the
// subscriptions it must decide are moved in time in the database first, and checked last.

type Catalogue = {
  Pay: Record<string, string>;
  Checkout: Record<string, string>;
  PayStatus: Record<string, string>;
  Billing: Record<string, string> & {
    status: Record<string, string>;
    orderStatus: Record<string, string>;
    refundReason: Record<string, string>;
  };
  Withdraw: Record<string, string>;
  Email: Record<string, string>;
  PageTitles: Record<string, string>;
  Legal: { termsOfUse: Record<string, string> };
};
const catalogue = (name: string): Catalogue => JSON.parse(readFileSync(`messages/${name}.json`, 'utf8'));
const en = catalogue('en');
const LOCALES = [
  { locale: 'en', prefix: '', m: en, n: 1 },
  { locale: 'es', prefix: '/es', m: catalogue('es'), n: 2 },
  { locale: 'id', prefix: '/id', m: catalogue('id'), n: 3 },
  { locale: 'en-PH', prefix: '/ph', m: en, n: 4 },
];

/** A catalogue text as a pattern: each placeholder (`{date}`, `{amount}`…) stands for any text; `^`/`$` with `whole`. */
function pattern(text: string, whole = false): RegExp {
  const body = text
    .split(/\{[A-Za-z]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  return new RegExp(whole ? `^${body}$` : body);
}

/** A distinct US number per locale and path, so no SMS cap of another spec is touched. */
const phone = (n: number, path: number) => `+141555528${n}${path}`;

/** The short reference of the order paid with `email`. */
async function referenceOf(email: string): Promise<string> {
  const [row] = await query<{ reference: string }>('select reference from orders where email = $1', [email]);
  return row.reference;
}

/** The outbox e-mails to `email` whose text matches `text` (a catalogue pattern). */
async function emailsMatching(page: Page, prefix: string, email: string, text: RegExp) {
  await page.goto(`${prefix}/dev/outbox/`);
  return page.locator(`[data-testid="outbox-email"][data-recipient="${email}"]`).filter({ hasText: text });
}

/** Locate box → pay step in `m`'s language: the price terms above Pay, `method` chosen, Pay pressed. */
async function payStep(page: Page, m: Catalogue, prefix: string, number: string, email: string, method: string) {
  await checkNumber(page, number, email, `${prefix}/`);
  const step = page.getByTestId('pay-step');
  await expect(step.getByTestId('price-line')).toHaveText(pattern(m.Pay.priceLine));
  await step.getByRole('radio', { name: method }).check();
  await step.getByRole('button', { name: pattern(m.Pay.pay) }).click();
}

/**
 * A buyer who paid through the API (as the checkout does) in `locale`, by card or wallet, in a browser context of its
 * own that holds the session; returns the context and the e-mail.
 */
async function apiBuyer(ctx: BrowserContext, locale: string, number: string, tag: string, method: 'card' | 'wallet') {
  // Addresses are stored in lower case (`en-PH` would not match).
  const email = uniqueEmail(tag.toLowerCase());
  const headers = { website_type: '7', 'accept-language': locale };
  const order = await ctx.request.post('/api_f/v1/portal/order', {
    headers,
    form: {
      email,
      phone: number,
      requesterName: 'Anna (your sister)',
      terms: 'true',
      startNow: 'true',
      locale,
      method,
    },
  });
  expect(order.status()).toBe(201);
  const { code } = (await order.json()).obj;
  const pay =
    method === 'card'
      ? await ctx.request.post(`/api_f/v1/portal/order/${code}/sandboxPay`, {
          headers,
          form: { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', zip: '94107' },
        })
      : await ctx.request.post(`/api_f/v1/portal/order/${code}/sandboxWallet`, { headers, form: { approve: 'true' } });
  expect(pay.status()).toBe(200);
  return email;
}

/** Per locale: the buyer whose trial nobody consented to, and the one whose trial converts (owner shared). */
const later: Record<
  string,
  { unconsented: { ctx: BrowserContext; email: string }; monthly: { ctx: BrowserContext; email: string } }
> = {};

test.beforeAll(async ({ browser }) => {
  for (const { locale, n } of LOCALES) {
    const a = await browser.newContext();
    const b = await browser.newContext();
    const unconsented = await apiBuyer(a, locale, phone(n, 3), `sub-unconsented-${locale}`, 'card');
    const monthly = await apiBuyer(b, locale, phone(n, 4), `sub-monthly-${locale}`, 'wallet');
    later[locale] = { unconsented: { ctx: a, email: unconsented }, monthly: { ctx: b, email: monthly } };
    // Time travel: the first trial ends in 5 minutes with nothing shared (inside the 10-minute decision window), the
    // second was shared and ended a minute ago, so the next billing run refunds the first and charges the second.
    await query(
      `update subscriptions set current_period_end = now() + interval '5 minutes'
        where order_id = (select id from orders where email = $1)`,
      [unconsented],
    );
    await query(
      `update location_requests set first_shared_at = now() where order_id = (select id from orders where email = $1)`,
      [monthly],
    );
    await query(
      `update subscriptions set current_period_end = now() - interval '1 minute'
        where order_id = (select id from orders where email = $1)`,
      [monthly],
    );
  }
});

test.afterAll(async () => {
  for (const { unconsented, monthly } of Object.values(later)) {
    await unconsented.ctx.close();
    await monthly.ctx.close();
  }
});

for (const { locale, prefix, m, n } of LOCALES) {
  test(`${locale}: card → trial on Billing → cancel in one step → withdraw → acknowledgement and e-mail`, async ({
    page,
  }) => {
    const email = uniqueEmail(`sub-card-${n}`);
    await payStep(page, m, prefix, phone(n, 1), email, m.Pay.card);
    await expect(page.getByRole('heading', { name: m.Checkout.title })).toBeVisible();
    await page.getByLabel(m.Checkout.cardNumber).fill('4242 4242 4242 4242');
    await page.getByLabel(m.Checkout.expiry).fill('12/34');
    await page.getByLabel(m.Checkout.cvc).fill('123');
    await page.getByLabel(m.Checkout.zip).fill('94107');
    await page.getByRole('button', { name: pattern(m.Checkout.pay) }).click();
    await expect(page.getByTestId('paid-headline')).toContainText(pattern(m.PayStatus.chargedCard));
    await expect(page.getByTestId('paid-headline')).toContainText(m.PayStatus.paidTitle);

    await page.goto(`${prefix}/dashboard/billing/`);
    await expect(page.getByTestId('subscription-status')).toHaveText(m.Billing.status.trialing);
    // One step: the dialog says what happens (access and requests until the period end), then it is done.
    await page.getByRole('button', { name: m.Billing.cancel }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(pattern(m.Billing.cancelConfirm));
    await dialog.getByRole('button', { name: m.Billing.cancel }).click();
    await expect(page.getByTestId('billing-notice')).toHaveText(pattern(m.Billing.cancelDone, true));
    await expect(page.getByText(pattern(m.Billing.endsOn, true))).toBeVisible();

    // Withdrawing is not cancelling: still offered, and it ends the contract with the money back.
    const reference = await referenceOf(email);
    await page.getByTestId('withdraw').getByRole('link', { name: m.Billing.withdraw }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/withdraw/$`));
    await expect(page).toHaveTitle(pattern(m.PageTitles.withdraw, true));
    const contract = page.getByTestId('withdraw-contract');
    await expect(contract).toContainText(reference);
    await expect(contract.getByTestId('withdraw-what')).toHaveText(pattern(m.Withdraw.whatFull, true));
    await page.getByRole('button', { name: m.Withdraw.confirm }).click();
    await expect(page.getByRole('heading', { name: m.Withdraw.doneTitle })).toBeVisible();
    const done = page.getByTestId('withdraw-done');
    await expect(done).toContainText(reference);
    await expect(done).toContainText(pattern(m.Withdraw.doneAt));
    await expect(done).toContainText(pattern(m.Withdraw.doneRefund));
    await expect(done).toContainText(m.Withdraw.doneRequests);

    await page.goto(`${prefix}/dashboard/billing/`);
    await expect(page.getByTestId('order').filter({ hasText: reference })).toContainText(
      m.Billing.orderStatus.refunded,
    );
    await expect(page.getByTestId('refund-reason')).toHaveText(m.Billing.refundReason.withdrawal);
    await expect(page.getByTestId('subscription-ended')).toBeVisible();
    await expect(await emailsMatching(page, prefix, email, pattern(m.Email.withdrawnSubject))).toHaveCount(1);
  });

  test(`${locale}: the terms state the withdrawal right and where the function is; wallet → paid, in its trial on Billing`, async ({
    page,
  }) => {
    await page.goto(`${prefix}/terms-of-use/`);
    const right = page.locator('#withdrawal');
    await expect(right.getByRole('heading', { name: m.Legal.termsOfUse.s6h })).toBeVisible();
    await expect(right).toContainText(m.Billing.withdraw);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: m.Billing.withdraw })).toHaveAttribute(
      'href',
      `${prefix}/withdraw/`,
    );

    const email = uniqueEmail(`sub-wallet-${n}`);
    await payStep(page, m, prefix, phone(n, 2), email, m.Pay.wallet);
    await expect(page).toHaveURL(new RegExp(`${prefix}/checkout/wallet/\\?order=`));
    await expect(page.getByRole('heading', { name: m.Checkout.walletTitle })).toBeVisible();
    await page.getByRole('button', { name: m.Checkout.walletApprove }).click();
    await expect(page.getByTestId('paid-headline')).toContainText(pattern(m.PayStatus.chargedWallet));
    await page.goto(`${prefix}/dashboard/billing/`);
    await expect(page.getByTestId('subscription-status')).toHaveText(m.Billing.status.trialing);
    await expect(page.getByText(pattern(m.Billing.nextBilling, true))).toBeVisible();
    await expect(page.getByTestId('order')).toContainText(m.Billing.wallet);
  });
}

for (const { locale, prefix, m } of LOCALES) {
  test(`${locale}: after the billing run — nobody consented: refunded and told why; shared: a paid month with its receipt`, async () => {
    // The server's billing job runs once a minute (pg-boss cron); the page is read again until it has run.
    test.setTimeout(150_000);
    const { unconsented, monthly } = later[locale];
    const page = await unconsented.ctx.newPage();
    await expect(async () => {
      await page.goto(`${prefix}/dashboard/billing/`);
      await expect(page.getByTestId('refund-reason')).toHaveText(m.Billing.refundReason.unconsented_trial, {
        timeout: 3000,
      });
    }).toPass({ timeout: 120_000, intervals: [2000] });
    await expect(page.getByTestId('order')).toContainText(m.Billing.orderStatus.refunded);
    await expect(page.getByTestId('subscription-status')).toHaveText(m.Billing.status.canceled);
    await expect(page.getByTestId('subscription-ended')).toBeVisible();
    const mail = await emailsMatching(page, prefix, unconsented.email, pattern(m.Email.trialRefundedSubject));
    await expect(mail).toHaveCount(1);
    await expect(mail).toContainText(pattern(m.Email.trialRefundedBody));
    await expect(mail).toContainText(m.Email.trialRefundedRequests);

    const paid = await monthly.ctx.newPage();
    await expect(async () => {
      await paid.goto(`${prefix}/dashboard/billing/`);
      await expect(paid.getByTestId('subscription-status')).toHaveText(m.Billing.status.active, { timeout: 3000 });
    }).toPass({ timeout: 60_000, intervals: [2000] });
    await expect(paid.getByText(pattern(m.Billing.nextBilling, true))).toBeVisible();
    // The charge's receipt: what, when, the next charge, and how to cancel.
    const receipt = await emailsMatching(paid, prefix, monthly.email, pattern(m.Email.receiptSubject));
    await expect(receipt).toHaveCount(1);
    await expect(receipt).toContainText(pattern(m.Email.receiptRenewal));
    await expect(receipt).toContainText(pattern(m.Email.receiptCancel));
  });
}
