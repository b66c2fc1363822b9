import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { query } from './db';
import { FOUND_SITES } from '../tests/support/fake-sites';

// /username-lookup against the fake sites of e2e/fixtures/wmn-sites.json (10 sites without the adult
// one; the slow site answers only after the suite's 4 s time-out, so a lookup runs about 4 s).

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('refuses an e-mail address and a phone number with a clear message, starting nothing', async ({ page }) => {
  await page.goto('/es/username-lookup/');
  const calls: string[] = [];
  page.on('request', (r) => r.url().includes('/usernameLookup') && calls.push(r.url()));
  await page.getByLabel('Nombre de usuario').fill('ana@example.com');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.locator('#username-error')).toHaveText(
    'Introduce un nombre de usuario, no una dirección de correo',
  );
  await page.getByLabel('Nombre de usuario').fill('+34 612 34 56 78');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.locator('#username-error')).toHaveText('Introduce un nombre de usuario, no un número de teléfono');
  expect(calls).toEqual([]);
});

test('shows progress as sites answer, can be stopped, and keeps the result at its address', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/username-lookup/');
  await page.getByLabel('Username').fill('alice');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/username-lookup\/\?id=[A-Za-z0-9_-]{22}$/);
  const progress = page.getByTestId('lookup-progress');
  await expect(progress).toHaveText(/^\d+ of 10 sites checked · \d+ found$/);
  await expect(page.getByTestId('lookup-status')).toHaveText('Checking…');
  // Nothing is concluded while it runs: no headline, no "every site answered".
  await expect(page.getByTestId('lookup-verdict')).toHaveCount(0);
  await expect(page.getByText(/gave a clear answer/)).toHaveCount(0);
  // The fast sites answer within a second; the slow one holds the lookup open.
  await expect(progress).toHaveText('9 of 10 sites checked · 6 found');
  const bar = page.getByRole('progressbar', { name: 'Sites checked' });
  await expect(bar).toHaveAttribute('aria-valuenow', '9');
  await expect(bar).toHaveAttribute('aria-valuemax', '10');
  await expect(bar).toHaveAttribute('aria-valuetext', '9 of 10 sites checked · 6 found');
  // The profiles found so far are listed before the end.
  await expect(page.getByText('Found so far:')).toBeVisible();
  await expect(page.getByTestId('lookup-found').getByRole('link')).toHaveText(FOUND_SITES);
  await expect(page.getByTestId('lookup-status')).toHaveText('Checking…');
  await expect(page.getByTestId('lookup-notes')).toContainText('So far 3 sites gave no clear answer.');
  await expect(page.getByTestId('lookup-verdict')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/username-lookup-390.png', fullPage: true });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('lookup-status')).toHaveText('Stopped before the end.');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  // Profiles found, but one site was never asked: there may be more.
  await expect(page.getByTestId('lookup-verdict')).toHaveText(
    'Profiles with this name were found on 6 sites, but not every site answered: there may be more.',
  );
  // Of the 9 that answered, the redirect into the private network, the redirect loop and the broken site are unknown.
  await expect(page.getByText('3 sites gave no clear answer (blocked, slow or changed).')).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The result page, opened again from its address, shows the same result.
  const url = page.url();
  await page.goto(url);
  await expect(page.getByTestId('lookup-progress')).toHaveText('9 of 10 sites checked · 6 found');
  await expect(page.getByTestId('lookup-status')).toHaveText('Stopped before the end.');
  expect(errors).toEqual([]);
});

test('a lookup left to run ends on its own; an unknown result id says results last an hour', async ({ page }) => {
  await page.goto('/id/username-lookup/');
  await page.getByLabel('Nama pengguna').fill('nobody');
  await page.getByRole('button', { name: 'Cari' }).click();
  await expect(page.getByTestId('lookup-status')).toHaveText('Selesai.', { timeout: 15_000 });
  await expect(page.getByTestId('lookup-progress')).toHaveText('10 dari 10 situs diperiksa · 0 ditemukan');
  // 6 sites said clearly "no such profile", 4 gave no clear answer: not found among the clear ones, not certain.
  await expect(page.getByTestId('lookup-verdict')).toHaveText(
    'Tidak ada profil dengan nama ini di 6 situs yang menjawab dengan jelas; 4 situs lainnya tidak menjawab, jadi hasil ini belum pasti.',
  );
  await expect(page.getByText('4 situs tidak memberi jawaban yang jelas')).toBeVisible();

  await page.goto('/id/username-lookup/?id=AAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByTestId('lookup-gone')).toHaveText(
    'Hasil ini sudah tidak ada: hasil disimpan selama satu jam. Cari lagi di bawah.',
  );
});

test('when the requests of the hour are spent, Search answers busy; a lookup cut short says how many sites were not checked', async ({
  page,
}) => {
  // The service-wide budget (rate_limits, rate-limiter-flexible's `<limit>:<subject>` keys) as other lookups left it.
  const spend = (points: number) =>
    query(
      `INSERT INTO rate_limits (key, points, expire) VALUES ('usernameLookupFetches:all', $1, $2)
       ON CONFLICT (key) DO UPDATE SET points = $1, expire = $2`,
      [points, Date.now() + 3600_000],
    );
  await spend(1_000_000);
  try {
    await page.goto('/es/username-lookup/');
    await page.getByLabel('Nombre de usuario').fill('alice');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'búsquedas' })).toHaveText(
      /^Las búsquedas de nombres de usuario están ocupadas ahora mismo: .* \(dentro de 60 min como máximo\)\.$/,
    );
    await expect(page.locator('#username-error')).toHaveCount(0);
    await expect(page).toHaveURL(/\/es\/username-lookup\/$/);
  } finally {
    await spend(0);
  }

  // A lookup the budget stopped after 4 of its 10 sites (stored as the job leaves it: done, 4 answers).
  const id = 'CappedCappedCappedCapp';
  const idHash = createHash('sha256').update(id).digest('hex');
  await query(
    `INSERT INTO username_checks (id_hash, username, total, status, expires_at) VALUES ($1, 'alice', 10, 'done', now() + interval '1 hour')`,
    [idHash],
  );
  await query(
    `INSERT INTO username_check_results (check_id_hash, site, outcome) VALUES ($1, 'Codes', 'found'), ($1, 'Strings', 'not_found'), ($1, 'Loop', 'unknown'), ($1, 'Api', 'found')`,
    [idHash],
  );
  await page.goto(`/username-lookup/?id=${id}`);
  await expect(page.getByTestId('lookup-progress')).toHaveText('4 of 10 sites checked · 2 found');
  await expect(page.getByTestId('lookup-status')).toHaveText(
    'Stopped before the end: the service has used its checks for this hour. 6 sites were not checked; please search again later.',
  );
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(page.getByTestId('lookup-found').getByRole('link')).toHaveText(['Api', 'Codes']);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});

test('when most sites fail, the result says it is unknown, not that no profile exists', async ({ page }) => {
  // For this account the fake sites drop the connection, except the two that answer by status code ("not found").
  await page.goto('/es/username-lookup/');
  await page.getByLabel('Nombre de usuario').fill('offline-ghost');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByTestId('lookup-status')).toHaveText('Terminado.', { timeout: 15_000 });
  await expect(page.getByTestId('lookup-progress')).toHaveText('10 de 10 sitios consultados · 0 encontrados');
  await expect(page.getByRole('progressbar', { name: 'Sitios consultados' })).toHaveAttribute('aria-valuenow', '10');
  const verdict = page.getByTestId('lookup-verdict');
  await expect(verdict).toHaveText(
    'La mayoría de los sitios no respondió: no podemos saber si este nombre está en uso.',
  );
  await expect(verdict).toHaveAttribute('data-verdict', 'unknown');
  await expect(page.getByText(/No se encontró ningún perfil/)).toHaveCount(0);
  await expect(page.getByTestId('lookup-notes')).toContainText(
    '8 sitios no dieron una respuesta clara (bloqueados, lentos o cambiados).',
  );
  await page.screenshot({ path: 'test-results/screens/username-lookup-unknown-390.png', fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});

test('the header links the tool in every locale, and the page credits WhatsMyName', async ({ page }) => {
  for (const [prefix, menu, tool, heading] of [
    ['', 'Menu', 'Username lookup', 'Username lookup: where a username has a public profile'],
    ['/es', 'Menú', 'Buscar nombre de usuario', 'Buscar nombre de usuario: dónde tiene un perfil público'],
    ['/id', 'Menu', 'Cari nama pengguna', 'Cari nama pengguna: di mana ada profil publiknya'],
    ['/ph', 'Menu', 'Username lookup', 'Username lookup: where a username has a public profile'],
  ]) {
    await page.goto(`${prefix}/`);
    // The caret is decoration: the menu's accessible name is its word alone.
    await expect(page.locator('header summary', { hasText: menu })).toHaveAccessibleName(menu);
    await page.locator('header summary', { hasText: menu }).click();
    await page.locator('header').getByRole('link', { name: tool }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page).toHaveURL(new RegExp(`${prefix}/username-lookup/$`));
  }
  await expect(page.getByTestId('wmn-attribution')).toContainText(
    'WhatsMyName (Micah Hoffman and contributors), CC BY-SA 4.0',
  );
  await page.goto('/about-us/');
  await expect(
    page.getByText(/WhatsMyName by Micah Hoffman and contributors, licensed under Creative Commons/),
  ).toBeVisible();
  const sitemap = await (await page.request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/es/username-lookup/');
});
