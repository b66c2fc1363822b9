import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_PG_PORT, query } from './db';

// The operator console in Chromium — created by the CLI against the running server's database, signed in
// with password + TOTP, an opt-out added with a reason and found in the audit log; never indexed.

test('an operator created by the CLI signs in with TOTP, adds an opt-out and sees it audited', async ({
  page,
  request,
}) => {
  const email = `ops.${Date.now()}@example.com`;
  const { stdout } = await promisify(execFile)(
    'npx',
    ['tsx', '--conditions=react-server', 'server/ops/create-operator-cli.ts', email],
    { env: { ...process.env, DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${E2E_PG_PORT}/app` } },
  );
  const password = /password: +(\S+)/.exec(stdout)![1];
  const secret = /TOTP secret: +(\S+)/.exec(stdout)![1];
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize({ width: 390, height: 844 });
  const res = await page.goto('/ops/');
  expect(res?.status()).toBe(200);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Authenticator code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  await page.getByLabel('Authenticator code').fill(totp.generate());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('ops-operator')).toHaveText(email);
  await page.screenshot({ path: 'test-results/ops-orders-390.png', fullPage: true });

  await page.getByRole('button', { name: 'Abuse & opt-outs' }).click();
  const phone = `+4474009${String(Date.now()).slice(-5)}`;
  await page.getByLabel('Number (+ and country code)').fill(phone);
  await page.getByLabel('Reason').fill('owner called support');
  await page.getByRole('button', { name: 'Add number' }).click();
  await expect(page.getByTestId('ops-opt-out').filter({ hasText: phone })).toBeVisible();
  const [row] = await query<{ reason: string; note: string }>(
    'select reason, note from opt_outs where phone_e164 = $1',
    [phone],
  );
  expect(row).toEqual({ reason: 'operator', note: 'owner called support' });

  await page.getByRole('button', { name: 'Audit log' }).click();
  await expect(
    page.getByTestId('ops-audit').filter({ hasText: 'opt_out.add' }).filter({ hasText: 'owner called support' }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/ops-audit-390.png', fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // The console's API answers nothing without its own session.
  expect((await request.get('/api_f/v1/ops/orders')).status()).toBe(401);
  expect(errors).toEqual([]);
});
