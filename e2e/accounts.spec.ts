import { expect, test, type Page } from '@playwright/test';
import { buyThroughApi, checkNumber, uniqueEmail } from './helpers';
import { query } from './db';

/** Reads the newest e-mail to `email` from /dev/outbox. */
async function latestMail(page: Page, email: string): Promise<string> {
  await page.goto('/dev/outbox/');
  const mail = page.locator(`[data-testid="outbox-email"][data-recipient="${email}"]`).first();
  await expect(mail).toBeVisible();
  return (await mail.textContent()) ?? '';
}

async function signIn(page: Page, email: string, password: string, path = '/login/') {
  await page.goto(path);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('a buyer signs in with the temporary password, must choose a password, signs out and in again', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('account');
  await buyThroughApi(request, '+14155552651', email);
  const temporary = /Temporary password: (\S+)/.exec(await latestMail(page, email))![1];

  await signIn(page, email, 'wrong password here');
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is incorrect' })).toBeVisible();

  await signIn(page, email, temporary);
  await expect(page).toHaveURL(/\/dashboard\/account\/$/);
  await expect(page.getByText('You signed in with a temporary password.')).toBeVisible();
  // Signed in with the temporary password: only the new one is asked.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Repeat the new password').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password must be between 8 to 64 characters')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('purple elephants dance');
  await page.getByLabel('Repeat the new password').fill('purple elephants dance');
  await page.getByRole('button', { name: 'Change password' }).click();
  // The form gives way to a confirmation of what changed; it does not come back asking for the "current" password.
  const changed = page.getByTestId('password-changed');
  await expect(changed).toContainText('Password changed');
  await expect(changed).toContainText(`Your own password now replaces the temporary one for ${email.toLowerCase()}`);
  await expect(changed).toContainText('Every other device was signed out');
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change password' })).toHaveCount(0);
  // Asked for, the form is back, and now it wants the password just chosen.
  await changed.getByRole('button', { name: 'Change it again' }).click();
  await expect(page.getByLabel('Current password')).toBeVisible();

  await page.goto('/dashboard/locations/');
  await expect(page.getByTestId('location-row')).toHaveCount(1);
  await page.getByTestId('account-menu').locator('summary').click();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  // The home page itself (every dashboard address ends in "/" too): sign-out loads it in full, after the menu has
  // already turned into "Sign in".
  await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get('/api_f/v1/spyContent')).status()).toBe(401);

  await signIn(page, email, 'purple elephants dance');
  await expect(page).toHaveURL(/\/dashboard\/locations\/$/);
});

test('forgotten password: the e-mail asked once, code from the outbox, reset, signed in with the new password', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('forgot');
  await buyThroughApi(request, '+14155552651', email);
  await page.goto('/forget/');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  // Straight to the reset page, which says where the code went and does not ask for the e-mail again.
  await expect(page).toHaveURL(/\/reset\/\?email=.*&sent=1$/);
  await expect(page.getByRole('status')).toContainText(`If an account exists for ${email}, we have sent it`);
  await expect(page.getByTestId('reset-account')).toContainText(`Account: ${email}`);
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveCount(0);
  const resetUrl = page.url();

  const code = /code is (\d{6})/.exec(await latestMail(page, email))![1];
  await page.goto(resetUrl);
  await page.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
  await page.getByLabel('New password', { exact: true }).fill('silver rivers run');
  await page.getByLabel('Repeat the new password').fill('silver rivers run');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByText('The code is incorrect or has expired')).toBeVisible();
  await page.getByLabel('Code from the e-mail').fill(code);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password was reset, and you are signed in with it.');
  // Signed in by the reset: the header shows the account menu and My locations opens without signing in again.
  await expect(page.getByTestId('account-menu')).toBeVisible();
  await page.getByRole('link', { name: 'Go to My locations' }).click();
  await expect(page).toHaveURL(/\/dashboard\/locations\/$/);
  await expect(page.getByTestId('location-row').first()).toBeVisible();
});

test('the sign-in page speaks Spanish at /es/login/', async ({ page }) => {
  await page.goto('/es/login/');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByText('Por favor, introduce un correo electrónico')).toBeVisible();
  await expect(page.getByText('La contraseña no puede estar vacía')).toBeVisible();
  await page.getByLabel('Correo electrónico').fill('nadie@example.com');
  await page.getByLabel('Contraseña').fill('no es la clave');
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'El correo o la contraseña no son correctos' })).toBeVisible();
});

test('/login?redirect=billing lands on the billing page with the trial and the paid order', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('billing');
  await buyThroughApi(request, '+14155552651', email);
  const temporary = /Temporary password: (\S+)/.exec(await latestMail(page, email))![1];
  // Choose a password first: a temporary password only opens the account page.
  await signIn(page, email, temporary);
  await expect(page).toHaveURL(/\/dashboard\/account\/$/);
  // Signed in with the temporary password: only the new one is asked.
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await page.getByLabel('New password', { exact: true }).fill('green tea at noon');
  await page.getByLabel('Repeat the new password').fill('green tea at noon');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-changed')).toContainText('Password changed');
  await page.getByTestId('account-menu').locator('summary').click();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  // The home page itself (every dashboard address ends in "/" too): sign-out loads it in full, after the menu has
  // already turned into "Sign in".
  await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toBeVisible();

  await signIn(page, email, 'green tea at noon', '/login/?redirect=billing');
  await expect(page).toHaveURL(/\/dashboard\/billing\/$/);
  await expect(page.getByRole('heading', { name: 'Billing' })).toBeVisible();
  await expect(page.getByTestId('subscription')).toContainText('Trial');
  await expect(page.getByTestId('order')).toContainText('US$0.99');
  await expect(page.getByTestId('order')).toContainText('Paid');
});

test('a registered e-mail is refused at Check number, with a sign-in link that returns to the number', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('registered');
  const token = await buyThroughApi(request, '+14155552651', email);
  const temporary = /Temporary password: (\S+)/.exec(await latestMail(page, email))![1];
  const changed = await request.put('/api_f/v1/admin/user/password', {
    headers: { website_type: '7', cookie: `token=${token}` },
    form: { password: temporary, newPassword: 'purple elephants dance' },
  });
  expect(changed.status()).toBe(200);

  // A stranger (no session) types that e-mail into the locate box: Check number says so, before any pay step. Every
  // spec browses from 127.0.0.1, and a spent per-IP limit of the e-mail check gives no verdict: start with a fresh one.
  await query(`DELETE FROM rate_limits WHERE key LIKE 'checkEmailPerIp:%'`);
  await checkNumber(page, '+1 415 555 2652', email);
  await expect(page.locator('#email-error')).toHaveText('The email address you entered is already registered!');
  await expect(page.getByTestId('pay-step')).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign in to continue with this number' }).click();
  await expect(page).toHaveURL(/\/login\/\?redirect=getLocation&phone=/);

  // The account's owner signs in and continues with the number in New request.
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill('purple elephants dance');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/getLocation\/\?phone=/);
  await expect(page.getByLabel('Phone number')).toHaveValue('+14155552652');
});
