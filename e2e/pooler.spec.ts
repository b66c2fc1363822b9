import { expect, test } from '@playwright/test';
import { Cluster, waitFor, type Proc } from './cluster';
import { checkNumber, consoleErrors, payWithCard, startPayment, uniqueEmail } from './helpers';
import { hasPgBouncer, startPgBouncer } from '../tests/support/pgbouncer';

// The whole journey in Chromium with the app's pool behind PgBouncer in transaction mode (pgbouncer.org, "Config":
// `pool_mode = transaction`), as a managed pooler or CloudNativePG's `Pooler` runs it (docs/deploy.md, "Behind a
// pooler"): DATABASE_URL through the pooler; DATABASE_SESSION_URL (the live hub's and the outbox's LISTEN) and
// MIGRATION_DATABASE_URL (the migrations' session lock) straight to PostgreSQL. Number → pay → consent SMS → the
// owner shares → the buyer's map follows each move live, and the hub says it hears.

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.skip(!hasPgBouncer, 'PgBouncer is not installed (apt-get install pgbouncer; .ci/run installs it)');

const cluster = new Cluster();
let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | null = null;
let web: Proc;

test.beforeAll(async () => {
  await cluster.start();
  bouncer = await startPgBouncer(cluster.databaseUrl);
  web = await cluster.app('pooled', {
    DATABASE_URL: bouncer.url,
    DATABASE_SESSION_URL: cluster.databaseUrl,
    MIGRATION_DATABASE_URL: cluster.databaseUrl,
    JOBS_IN_PROCESS: 'true',
    // The development outbox's page and API show the SMS with its link (demo mode only).
    DEV_OUTBOX: 'on',
  });
});

test.afterEach(({}, info) => {
  // A failure shows the app's own errors (its log lines at level error and above).
  if (info.status !== info.expectedStatus) console.log(web?.lines.filter((l) => /"level":[56]\d/.test(l)).join('\n'));
});

test.afterAll(async () => {
  await cluster.close();
  await bouncer?.stop();
});

test('the journey through a transaction pooler: pay, consent SMS, share, and a live map that follows', async ({
  browser,
}) => {
  const origin = `http://localhost:${web.port}`;
  const buyer = await browser.newContext({ baseURL: origin });
  const page = await buyer.newPage();
  const errors = consoleErrors(page);
  await checkNumber(page, '+34 612 345 601', uniqueEmail('pooler'));
  await expect(page.getByTestId('fact-country')).toContainText('Spain');
  await startPayment(page);
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toBeVisible();

  // The consent SMS left through the outbox (its worker in this process, its listener on the direct connection); the
  // development outbox shows it with its link (the stored row keeps the code masked).
  const sms = await waitFor('the consent SMS', async () => {
    const res = await fetch(`${web.url}/api_f/v1/dev/outbox`);
    const { obj } = (await res.json()) as { obj: { recipient: string; channel: string; body: string }[] };
    return obj.find((m) => m.channel === 'sms' && m.recipient === '+34612345601');
  });
  const link = /(?:\/[\w-]+)?\/location\/\?c=[\w-]+/.exec(sms.body)?.[0];
  expect(link, sms.body).toBeTruthy();
  const owner = await browser.newContext({
    baseURL: origin,
    geolocation: { latitude: 40.41678, longitude: -3.70379, accuracy: 12 },
    permissions: ['geolocation'],
  });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link!);
  await ownerPage.getByRole('button', { name: 'Compartir mi ubicación' }).click();
  await expect(ownerPage.getByText('Estás compartiendo tu ubicación.')).toBeVisible();

  await page.goto('/dashboard/locations/');
  await page.getByTestId('location-row').getByRole('link', { name: 'Open map' }).click();
  await expect(page.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');
  await expect(page.getByText('Updates appear as they arrive.')).toBeVisible();
  // Live through the pooler: the move reaches the open map over its stream, and the hub hears its notifications.
  await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
  await expect(page.getByTestId('coordinates')).toHaveText('40.42678, -3.70379');
  const health = (await (await fetch(`${web.url}/api_f/v1/health`)).json()) as { obj: { live: string } };
  expect(health.obj.live).toBe('hearing');
  const [{ n }] = await cluster.query<{ n: number }>(
    "select count(*)::int as n from outbound_messages where recipient = '+34612345601' and status = 'sent'",
  );
  expect(n).toBe(1);
  // The map's tile host cannot be resolved on an offline machine (the built-in base layer shows instead).
  expect(errors.filter((e) => !e.endsWith('Failed to load resource: net::ERR_NAME_NOT_RESOLVED'))).toEqual([]);
  await owner.close();
  await buyer.close();
});
