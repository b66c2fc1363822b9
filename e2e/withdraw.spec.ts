import { expect, test, type Page } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, uniqueEmail } from './helpers';

// The withdrawal function (Directive 2011/83/EU Art. 11a): footer → e-mail → link → confirmation → acknowledgement.

test.use({ timezoneId: 'Europe/Madrid' });

/** The order's short reference, which the confirmation step names. */
async function referenceOf(email: string): Promise<string> {
  const [row] = await query<{ reference: string }>('select reference from orders where email = $1', [email]);
  return row.reference;
}

/** The withdrawal link e-mailed to `email`, from the development outbox. */
async function linkFromOutbox(page: Page, email: string, prefix: string): Promise<string> {
  await page.goto(`${prefix}/dev/outbox/`);
  const mail = page.locator(`[data-testid="outbox-email"][data-recipient="${email}"]`).filter({ hasText: 'token=' });
  const href = await mail.getByRole('link', { name: /\/withdraw\/\?token=/ }).getAttribute('href');
  expect(href).toContain(`${prefix}/withdraw/?token=`);
  return href!;
}

const CASES = [
  {
    locale: 'en',
    prefix: '',
    phone: '+14155552771',
    link: 'Withdraw from contract here',
    email: 'E-mail',
    send: 'Send me the link',
    sent: 'If an order exists for this e-mail, we have sent it a link.',
    confirm: 'Confirm withdrawal',
    what: /If you withdraw now: the contract ends at once, nothing more will be charged, and you get back everything you paid: US\$0\.\d\d/,
    doneTitle: 'Withdrawal received',
    doneAt: /Date and time: .+ 20\d\d.+UTC/,
    doneLocal: /In your time zone: .+\(Europe\/Madrid\)/,
  },
  {
    locale: 'es',
    prefix: '/es',
    phone: '+14155552772',
    link: 'Desistir del contrato aquí',
    email: 'Correo electrónico',
    send: 'Envíame el enlace',
    sent: 'Si existe un pedido con este correo, le hemos enviado un enlace.',
    confirm: 'Confirmar el desistimiento',
    what: /Si desistes ahora: el contrato termina en el acto, no se cobrará nada más y recuperas todo lo que pagaste/,
    doneTitle: 'Desistimiento recibido',
    doneAt: /Fecha y hora: .+ 20\d\d.+UTC/,
    doneLocal: /En tu zona horaria: .+\(Europe\/Madrid\)/,
  },
];

for (const c of CASES) {
  test(`${c.locale}: footer link → e-mail → link → confirmation naming the contract → acknowledgement`, async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail(`withdraw-${c.locale}`);
    const buyer = await browser.newContext();
    await buyThroughApi(buyer.request, c.phone, email);
    await buyer.close();
    const reference = await referenceOf(email);

    await page.goto(`${c.prefix}/`);
    await page.getByRole('contentinfo').getByRole('link', { name: c.link }).click();
    await expect(page).toHaveURL(new RegExp(`${c.prefix}/withdraw/$`));
    await page.getByLabel(c.email).fill(email);
    await page.getByRole('button', { name: c.send }).click();
    await expect(page.getByText(c.sent)).toBeVisible();

    await page.goto(await linkFromOutbox(page, email, c.prefix));
    const contract = page.getByTestId('withdraw-contract');
    await expect(contract).toContainText(reference);
    await expect(contract).toContainText('+1 415 555');
    await expect(contract.getByTestId('withdraw-what')).toHaveText(c.what);
    await page.getByRole('button', { name: c.confirm }).click();

    const done = page.getByTestId('withdraw-done');
    await expect(page.getByRole('heading', { name: c.doneTitle })).toBeVisible();
    await expect(done).toContainText(reference);
    await expect(done).toContainText(c.doneAt);
    await expect(done).toContainText(c.doneLocal);
    // The same acknowledgement went out by e-mail (a durable medium).
    await page.goto(`${c.prefix}/dev/outbox/`);
    // The order e-mail names the reference too: the acknowledgement is the one that also gives the buyer's zone.
    await expect(
      page
        .locator(`[data-testid="outbox-email"][data-recipient="${email}"]`)
        .filter({ hasText: reference })
        .filter({ hasText: 'Europe/Madrid' }),
    ).toHaveCount(1);
  });
}

test('signed in: Billing → "Withdraw from contract here" → the confirmation at once → acknowledgement', async ({
  page,
}) => {
  const email = uniqueEmail('withdraw-billing');
  await buyThroughApi(page.request, '+14155552773', email);
  const reference = await referenceOf(email);
  await page.goto('/dashboard/billing/');
  await page.getByTestId('withdraw').getByRole('link', { name: 'Withdraw from contract here' }).click();
  await expect(page).toHaveURL(/\/withdraw\/$/);
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
  await expect(page.getByTestId('withdraw-contract')).toContainText(reference);
  await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
  await expect(page.getByTestId('withdraw-done')).toContainText(/Date and time: .+UTC/);
  await page.goto('/dashboard/billing/');
  await expect(page.getByTestId('subscription-ended')).toBeVisible();
});

test('the withdrawal page fits a 360 px phone in every locale, with the footer link', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  for (const [prefix, link] of [
    ['', 'Withdraw from contract here'],
    ['/es', 'Desistir del contrato aquí'],
    ['/id', 'Tarik diri dari kontrak di sini'],
    ['/ph', 'Withdraw from contract here'],
  ]) {
    await page.goto(`${prefix}/withdraw/`);
    await expect(page.locator('#withdraw-email')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: link })).toHaveAttribute(
      'href',
      `${prefix}/withdraw/`,
    );
  }
  await ctx.close();
});
