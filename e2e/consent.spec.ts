import { expect, test, type Browser, type BrowserContext } from '@playwright/test';
import { query } from './db';
import { buyThroughApi, consentLinkFromOutbox, expectOwnerCanShare, uniqueEmail } from './helpers';

/** A buyer (signed in through the payment's session) and the consent link sent to `phone`. */
async function buyerWithLink(browser: Browser, baseURL: string, phone: string, e164: string) {
  const buyer = await browser.newContext();
  const token = await buyThroughApi(buyer.request, phone, uniqueEmail('consent'));
  await buyer.addCookies([{ name: 'token', value: token, url: baseURL }]);
  const page = await buyer.newPage();
  const link = await consentLinkFromOutbox(page, e164);
  return { buyer, page, link };
}

async function ownerAt(browser: Browser, latitude: number, longitude: number): Promise<BrowserContext> {
  return browser.newContext({ geolocation: { latitude, longitude, accuracy: 10 }, permissions: ['geolocation'] });
}

test('a second fix moves the marker; Stop asks first and ends sharing; Share again resumes', async ({
  browser,
  baseURL,
}) => {
  const { buyer, page, link } = await buyerWithLink(browser, baseURL!, '+1 415 555 2655', '+14155552655');
  const owner = await ownerAt(browser, 37.77493, -122.41942);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await ownerPage.getByRole('button', { name: 'Share my location' }).click();
  await expect(ownerPage.getByTestId('last-sent')).toBeVisible();
  await expect(ownerPage.getByText('Sharing pauses while the phone is locked')).toBeVisible();

  await page.goto('/dashboard/locations/');
  await page.getByTestId('location-row').first().getByRole('link', { name: 'Open map' }).click();
  await expect(page.getByTestId('coordinates')).toHaveText('37.77493, -122.41942');

  // About 1.1 km north: more than 25 m, so it is sent at once; the map polls every 3 s.
  await owner.setGeolocation({ latitude: 37.78493, longitude: -122.41942, accuracy: 10 });
  await expect(page.getByTestId('coordinates')).toHaveText('37.78493, -122.41942', { timeout: 8000 });

  await ownerPage.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(ownerPage.getByText('Stop sharing your location now?')).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Cancel' }).click();
  await expect(ownerPage.getByText('You are sharing your location.')).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Stop sharing' }).click();
  await ownerPage.getByRole('button', { name: 'Yes' }).click();
  await expect(ownerPage.getByTestId('owner-notice')).toContainText(
    /^You stopped sharing at \d\d:\d\d .+\. Nothing more is being sent\.$/,
  );
  await expect(ownerPage.getByText('You can stop sharing at any time')).toHaveCount(0);
  // A single-purpose page: nothing leads away to the site, Report abuse stays offered.
  await expect(ownerPage.getByRole('link', { name: 'Visit website' })).toHaveCount(0);
  await expect(ownerPage.getByRole('button', { name: 'Report abuse' })).toBeVisible();

  const code = new URL(link).searchParams.get('c');
  const refused = await owner.request.put(`/api_f/v1/spyContent/phoneLocation/${code}`, {
    headers: { website_type: '7' },
    form: { action: 'position', latitude: '1', longitude: '2', accuracy: '5' },
  });
  expect(refused.status()).toBe(409);

  await owner.setGeolocation({ latitude: 37.79493, longitude: -122.41942, accuracy: 10 });
  await ownerPage.getByRole('button', { name: 'Share again' }).click();
  // Sharing again is a new consent: it asks first, naming who sees the position and for how long.
  const again = ownerPage.getByRole('dialog');
  await expect(again).toContainText('Share this phone’s location with Anna (your sister) again, for 1 hour?');
  await again.getByRole('button', { name: 'Share again' }).click();
  await expect(ownerPage.getByText('You are sharing your location.')).toBeVisible();
  await expect(page.getByTestId('coordinates')).toHaveText('37.79493, -122.41942', { timeout: 8000 });
  await owner.close();
  await buyer.close();
});

test('Report abuse stops every further request to the number', async ({ browser, baseURL }) => {
  const { buyer, page, link } = await buyerWithLink(browser, baseURL!, '+44 7400 123457', '+447400123457');
  const owner = await ownerAt(browser, 51.5, -0.12);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await ownerPage.getByRole('button', { name: 'Report abuse' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Report abuse' });
  await expect(dialog).toContainText('This number will receive no more location requests from Chamspy.');
  await dialog.getByRole('button', { name: 'Report and block' }).click();
  await expect(ownerPage.getByText('This number will receive no more location requests from us.')).toBeVisible();
  await expect(ownerPage.getByTestId('safety-advice')).toHaveText(
    'If you feel unsafe, contact your local emergency number or a support organisation you trust. Requests to this number through our service are now blocked.',
  );
  await expect(ownerPage.getByRole('button', { name: 'Report abuse' })).toHaveCount(0);

  await page.goto('/getLocation/');
  await page.getByLabel('Phone number').fill('+44 7400 123457');
  await page.getByLabel('Your name, as the owner will see it').fill('Anna');
  await page.getByRole('button', { name: 'Send the consent SMS' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'This number does not accept location requests.' }),
  ).toBeVisible();
  await owner.close();
  await buyer.close();
});

test('permission denied: nothing is stored, the owner can try again, the buyer sees "location not allowed"', async ({
  browser,
  baseURL,
}) => {
  const { buyer, page, link } = await buyerWithLink(browser, baseURL!, '+63 917 123 4583', '+639171234583');
  const code = new URL(link).searchParams.get('c')!;
  const owner = await browser.newContext({ permissions: [] });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await ownerPage.getByRole('button', { name: 'Share my location' }).click();
  const denied = ownerPage.getByTestId('location-denied');
  await expect(denied).toContainText('Your browser did not allow location, so nothing has been shared.');
  await expect(denied).toContainText('allow location for this site in your browser settings');
  await expect(ownerPage.getByRole('button', { name: 'Share again' })).toBeVisible();
  await expect(ownerPage.getByText('You are sharing your location.')).toHaveCount(0);

  // Nothing stored: no position, no consent record, the request still `opened`, no "is sharing" e-mail.
  const [request] = await query<{ id: string; status: string; location_denied_at: Date | null }>(
    `select id, status, location_denied_at from location_requests where consent_code_hash = encode(sha256($1::bytea), 'hex')`,
    [code],
  );
  expect(request).toMatchObject({ status: 'opened' });
  expect(request.location_denied_at).not.toBeNull();
  expect(await query('select 1 from positions where request_id = $1', [request.id])).toHaveLength(0);
  expect(await query('select 1 from consents where request_id = $1', [request.id])).toHaveLength(0);
  expect(
    await query(`select 1 from outbound_messages where template = 'sharing-started' and payload->>'phone' = $1`, [
      '+639171234583',
    ]),
  ).toHaveLength(0);

  await page.goto('/dashboard/locations/');
  const row = page.getByTestId('location-row').first();
  await expect(row.getByTestId('location-status')).toHaveText('Opened, location not allowed');
  await row.getByRole('link', { name: 'Open map' }).click();
  await expect(page.getByText('their browser did not allow location. Nothing has been shared')).toBeVisible();
  await expect(page.getByTestId('coordinates')).toHaveCount(0);

  // Allowing it afterwards and trying again shares.
  await owner.grantPermissions(['geolocation']);
  await owner.setGeolocation({ latitude: 14.59951, longitude: 120.98422, accuracy: 20 });
  await ownerPage.getByRole('button', { name: 'Share again' }).click();
  await expect(ownerPage.getByText('You are sharing your location.')).toBeVisible();
  await expect(page.getByTestId('coordinates')).toHaveText('14.59951, 120.98422', { timeout: 8000 });
  await owner.close();
  await buyer.close();
});

test('a new request from the dashboard shows a consent link to copy, which opens the consent page', async ({
  browser,
  baseURL,
}) => {
  const { buyer, page } = await buyerWithLink(browser, baseURL!, '+34 612 34 56 71', '+34612345671');
  await page.goto('/dashboard/locations/');
  await expect(page.getByTestId('quota')).toHaveText('1 of 30 location requests used this period');
  await page.getByRole('link', { name: 'New request' }).click();
  await page.getByLabel('Phone number').fill('+62 812-3456-7892');
  await page.getByLabel('Your name, as the owner will see it').fill('Budi (kakak)');
  // The preview is in the language the SMS goes out in: the owner's (an Indonesian number), quoting the name. One text
  // only: the ones that said the requester is one of the owner's contacts are withdrawn (we cannot know that).
  await page.getByLabel(/^"Budi \(kakak\)" meminta lokasi ponsel ini melalui/).check();
  await expect(page.getByText(/kontak Anda/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Send the consent SMS' }).click();
  await expect(page.getByText('The consent SMS is on its way.')).toBeVisible();
  const link = await page.getByTestId('consent-link').inputValue();
  expect(link).toMatch(/\/id\/location\/\?c=/);

  await expectOwnerCanShare(browser, link, 'Bagikan lokasi saya');
  await buyer.close();
});

test('an undelivered SMS shows "SMS not delivered" and a consent link the buyer can send', async ({
  browser,
  baseURL,
}) => {
  const { buyer, page } = await buyerWithLink(browser, baseURL!, '+34 612 34 56 79', '+34612345679');
  await query(
    `update outbound_messages set status = 'failed', last_error = 'twilio 30003'
      where channel = 'sms' and location_request_id = (
        select id from location_requests where target_e164 = $1 order by created_at desc limit 1)`,
    ['+34612345679'],
  );
  await page.goto('/dashboard/locations/');
  const row = page.getByTestId('location-row').filter({ hasText: '+34 612 34 56 79' });
  await expect(row.getByTestId('location-status')).toHaveText('SMS not delivered');
  await expect(row.getByText('The consent SMS did not reach this number.')).toBeVisible();
  await row.getByRole('button', { name: 'Get the consent link' }).click();
  const link = await row.getByRole('textbox', { name: 'Copy link' }).inputValue();
  expect(link).toMatch(/\/es\/location\/\?c=[A-Za-z0-9_-]{22}$/);

  await expectOwnerCanShare(browser, link, 'Compartir mi ubicación');
  await buyer.close();
});

test("the owner's page retries a network error, and a window that ran out reads as ended", async ({
  browser,
  baseURL,
}) => {
  const { buyer, link } = await buyerWithLink(browser, baseURL!, '+34 612 34 56 70', '+34612345670');
  const owner = await ownerAt(browser, 40.4, -3.7);
  const ownerPage = await owner.newPage();
  // The first two loads meet a dropped connection: the page says it is reconnecting, then shows the request.
  let drops = 2;
  await ownerPage.route('**/api_f/v1/spyContent/consent/**', (route) =>
    drops-- > 0 ? route.abort('internetdisconnected') : route.continue(),
  );
  await ownerPage.goto(link);
  await expect(ownerPage.getByTestId('reconnecting')).toBeVisible();
  await expect(ownerPage.getByTestId('requester')).toContainText(
    'Anna (your sister) pide la ubicación de este teléfono a través de Chamspy.',
  );
  await expect(ownerPage.getByTestId('consent-panel')).toHaveAttribute('data-state', 'asked');

  await ownerPage.locator('button[data-btn-id="consent_share"]').click();
  await expect(ownerPage.getByTestId('consent-panel')).toHaveAttribute('data-state', 'sharing');
  // The window runs out (moved into the past in the database): on the next visit the page says it ended, at what
  // time, and offers to share again rather than "you can stop sharing".
  const code = new URL(link).searchParams.get('c');
  await query(
    `update location_requests set sharing_until = now() - interval '1 minute'
     where consent_code_hash = encode(sha256($1::bytea), 'hex')`,
    [code],
  );
  await ownerPage.reload();
  await expect(ownerPage.getByTestId('consent-panel')).toHaveAttribute('data-state', 'ended');
  await expect(ownerPage.getByTestId('owner-notice')).toContainText(/^La ubicación se dejó de compartir a las /);
  await expect(ownerPage.getByText('Puedes dejar de compartir en cualquier momento')).toHaveCount(0);
  await expect(ownerPage.getByRole('button', { name: 'Compartir de nuevo' })).toBeVisible();
  await owner.close();
  await buyer.close();
});

test("the owner's page is single-purpose: the product's name, the request, the choice, report abuse and the privacy policy; no cookie banner, site navigation or sign-in, in every locale", async ({
  browser,
  baseURL,
}) => {
  const { buyer, link } = await buyerWithLink(browser, baseURL!, '+44 7400 123459', '+447400123459');
  const code = new URL(link).searchParams.get('c')!;
  const owner = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const ownerPage = await owner.newPage();
  const privacy = {
    '': 'Privacy policy',
    '/es': 'Política de privacidad',
    '/id': 'Kebijakan privasi',
    '/ph': 'Privacy policy',
  };
  for (const [prefix, policy] of Object.entries(privacy)) {
    await ownerPage.goto(`${prefix}/location/?c=${code}`);
    await expect(ownerPage.getByTestId('consent-panel')).toHaveAttribute('data-state', 'asked');
    await expect(ownerPage.getByTestId('owner-header')).toHaveText('Chamspy');
    // Demo mode still says so.
    await expect(ownerPage.getByTestId('demo-ribbon')).toBeVisible();
    await expect(ownerPage.getByTestId('cookie-banner')).toHaveCount(0);
    await expect(ownerPage.locator('nav')).toHaveCount(0);
    await expect(ownerPage.getByRole('link', { name: /sign in|iniciar sesión|masuk/i })).toHaveCount(0);
    await expect(ownerPage.getByRole('button', { name: /menu|menú/i })).toHaveCount(0);
    // The only links: the number's safety centre (with this link's code) and the privacy policy.
    const links = await ownerPage.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.sort()).toEqual(
      [`${prefix}/privacy-policy/`, `${prefix}/safety/?c=${encodeURIComponent(code)}`].sort(),
    );
    await expect(ownerPage.getByRole('link', { name: policy })).toBeVisible();
    await expect(ownerPage.getByTestId('report-abuse').getByRole('button')).toBeVisible();
  }
  // No choice was asked for, none is set: the page runs nothing optional (no page tracking, no event service).
  const names = (await owner.cookies()).map((c) => c.name);
  expect(names).not.toContain('acceptCookie');
  await owner.close();
  await buyer.close();
});

test('after Decline, Report abuse asks an optional reason: a link is refused in the dialog, a plain reason is stored, safety advice ends the page', async ({
  browser,
  baseURL,
}) => {
  const { buyer, link } = await buyerWithLink(browser, baseURL!, '+44 7400 123460', '+447400123460');
  const code = new URL(link).searchParams.get('c')!;
  const owner = await ownerAt(browser, 51.5, -0.12);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(`/es${new URL(link).pathname}${new URL(link).search}`);
  await ownerPage.getByRole('button', { name: 'Rechazar' }).click();
  await expect(ownerPage.getByTestId('owner-notice')).toContainText('Has rechazado la solicitud.');
  const report = ownerPage.getByTestId('report-abuse');
  await expect(report).toContainText('bloquearemos cualquier otra solicitud de ubicación a este número');
  await report.getByRole('button', { name: 'Denunciar abuso' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Denunciar abuso' });
  const reason = dialog.getByLabel('¿Qué ha pasado? (opcional)');
  await reason.fill('Me escribe desde chamspy-ayuda.com');
  await dialog.getByRole('button', { name: 'Denunciar y bloquear' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'El motivo no puede contener un enlace, una dirección web ni un correo electrónico',
  );
  await expect(dialog).toBeVisible();
  await reason.fill('No sé quién es\ny me   insiste mucho');
  await dialog.getByRole('button', { name: 'Denunciar y bloquear' }).click();
  await expect(dialog).toBeHidden();
  await expect(ownerPage.getByTestId('owner-notice')).toHaveText(
    'Gracias. Este número no recibirá más solicitudes de ubicación nuestras.',
  );
  await expect(ownerPage.getByTestId('safety-advice')).toContainText('llama al número de emergencias de tu país');
  await expect(ownerPage.getByRole('button', { name: 'Denunciar abuso' })).toHaveCount(0);

  const rows = await query<{ decision: string; reason: string | null }>(
    `select c.decision, c.reason from consents c join location_requests r on r.id = c.request_id
      where r.consent_code_hash = encode(sha256($1::bytea), 'hex') order by c.created_at`,
    [code],
  );
  expect(rows).toEqual([
    { decision: 'declined', reason: null },
    { decision: 'reported', reason: 'No sé quién es y me insiste mucho' },
  ]);
  expect(await query('select 1 from opt_outs where phone_e164 = $1', ['+447400123460'])).toHaveLength(1);
  await owner.close();
  await buyer.close();
});
