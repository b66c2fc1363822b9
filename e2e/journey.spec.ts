import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { checkNumber, consentLinkFromOutbox, consoleErrors, payWithCard, startPayment, uniqueEmail } from './helpers';

/** The consent page speaks the language guessed from the number's country. */
const consentText = {
  en: {
    onBehalf: "Anna (your sister) asks for this phone's location via Chamspy.",
    account: 'Asked from the account',
    facts: 'Account created today, first request',
    share: 'Share my location',
    decline: 'Decline',
    sharing: 'You are sharing your location.',
    accuracy: 'accuracy 12 m',
  },
  es: {
    onBehalf: 'Anna (your sister) pide la ubicación de este teléfono a través de Chamspy.',
    account: 'Solicitado desde la cuenta',
    facts: 'Cuenta creada hoy, primera solicitud',
    share: 'Compartir mi ubicación',
    decline: 'Rechazar',
    sharing: 'Estás compartiendo tu ubicación.',
    accuracy: 'precisión 12 m',
  },
  id: {
    onBehalf: 'Anna (your sister) meminta lokasi ponsel ini melalui Chamspy.',
    account: 'Diminta dari akun',
    facts: 'Akun dibuat hari ini, permintaan pertama',
    share: 'Bagikan lokasi saya',
    decline: 'Tolak',
    sharing: 'Anda sedang membagikan lokasi.',
    accuracy: 'akurasi 12 m',
  },
};

/** The buyer's and the owner's whole journey on real input: number → facts → pay with 4242 → consent SMS → owner shares → buyer's map. */
const cases = [
  {
    input: '+34 612 34 56 78',
    e164: '+34612345678',
    country: 'Spain',
    carrier: 'Syma',
    lang: 'es' as const,
    lat: 40.41678,
    lng: -3.70379,
  },
  {
    input: '+62 812-3456-7890',
    e164: '+6281234567890',
    country: 'Indonesia',
    carrier: 'Telkomsel',
    lang: 'id' as const,
    lat: -6.2088,
    lng: 106.84559,
  },
  {
    input: '+63 917 123 4567',
    e164: '+639171234567',
    country: 'Philippines',
    carrier: 'Globe',
    lang: 'en' as const,
    lat: 14.59951,
    lng: 120.98422,
  },
  {
    input: '+1 415 555 2671',
    e164: '+14155552671',
    country: 'United States',
    carrier: null,
    lang: 'en' as const,
    lat: 37.77493,
    lng: -122.41942,
  },
  {
    input: '+44 7400 123456',
    e164: '+447400123456',
    country: 'United Kingdom',
    carrier: 'Three',
    lang: 'en' as const,
    lat: 51.50735,
    lng: -0.12776,
  },
];

for (const c of cases) {
  test(`journey for ${c.input}: facts, payment, consent, map`, async ({ page, browser }) => {
    // No console error on any page of the journey, the buyer's or the owner's.
    const errors = consoleErrors(page);
    const email = uniqueEmail('buyer');
    await checkNumber(page, c.input, email);
    await expect(page.getByRole('heading', { name: 'From the number: country, carrier, time zone' })).toBeVisible();
    await expect(page.getByTestId('fact-country')).toContainText(c.country);
    // A fact the numbering plan does not give is left out, with one line saying so.
    if (c.carrier) await expect(page.getByTestId('fact-carrier')).toContainText(c.carrier);
    else {
      await expect(page.getByTestId('fact-carrier')).toHaveCount(0);
      await expect(page.getByText('those it does not give are left out')).toBeVisible();
    }
    await expect(page.getByTestId('fact-e164')).toHaveText(
      new RegExp(`^Number${c.input.replace(/[ -]/g, '[ -]').replace('+', '\\+')}$`),
    );

    await startPayment(page);
    await expect(page).toHaveURL(/\/checkout\/\?order=/);
    await expect(page.getByText('for 24 hours, then')).toBeVisible();
    await payWithCard(page, '4242 4242 4242 4242');
    // What happened (amount, card, day), what happens next, a receipt with the short order reference, one button.
    await expect(page.getByRole('heading', { name: /^Payment received/ })).toContainText(
      /\$0\.\d\d charged to Visa\s••••\s4242 on \w{3} \d{1,2}, \d{4}/,
    );
    await expect(page.getByTestId('paid-next')).toContainText(
      // Formatted numbers keep their groups together with no-break spaces.
      new RegExp(`consent SMS (?:was sent )?to ${c.input.replace(/[ -]/g, '[\\s-]').replace('+', '\\+')}`),
    );
    await expect(page.getByTestId('receipt')).toContainText(
      /^Receipt: US\$0\.\d\d on .+ · Order CH-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2} · Shown on your statement as /,
    );
    await expect(page.getByTestId('receipt')).not.toContainText(new URL(page.url()).searchParams.get('order')!);
    const section = page.locator('section[data-status="paid"]');
    await expect(section.getByRole('link')).toHaveCount(1);
    await expect(section.getByRole('link', { name: 'Open your request' })).toHaveAttribute('href', /\/map\/\?id=/);

    const link = await consentLinkFromOutbox(page, c.e164);

    const owner = await browser.newContext({
      geolocation: { latitude: c.lat, longitude: c.lng, accuracy: 12 },
      permissions: ['geolocation'],
    });
    const ownerPage = await owner.newPage();
    errors.push(...consoleErrors(ownerPage));
    await ownerPage.goto(link);
    const text = consentText[c.lang];
    await expect(ownerPage.getByText(text.onBehalf)).toBeVisible();
    await expect(ownerPage.getByText(`${text.account} ${email.slice(0, 1)}•••@example.com.`)).toBeVisible();
    // Beside the name, what we know of the account that asks: a new one, with this as its first request.
    await expect(ownerPage.getByTestId('requester-facts')).toHaveText(text.facts);
    await expect(ownerPage.getByRole('button', { name: text.share })).toBeVisible();
    await expect(ownerPage.getByRole('button', { name: text.decline })).toBeVisible();
    await ownerPage.getByRole('button', { name: text.share }).click();
    await expect(ownerPage.getByText(text.sharing)).toBeVisible();
    await expect(ownerPage.getByTestId('last-sent')).toContainText(text.accuracy);

    await page.goto('/dashboard/locations/');
    // Numbers are shown in international format.
    const row = page
      .getByTestId('location-row')
      .filter({ hasText: new RegExp(c.input.replace(/[ -]/g, '[ -]').replace('+', '\\+')) });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('location-status')).toHaveText('Sharing');
    await row.getByRole('link', { name: 'Open map' }).click();
    await expect(page.getByTestId('coordinates')).toHaveText(`${c.lat.toFixed(5)}, ${c.lng.toFixed(5)}`);
    // No tile server answers here: the built-in Natural Earth layer is drawn under the point, the map frames the
    // accuracy circle, the marker names the number, and the nearest place is said in words.
    await expect(page.locator('.leaflet-offline-base-pane path').first()).toBeAttached();
    await expect(page.locator('.leaflet-container')).toHaveAttribute('data-offline-base', 'shown');
    await expect(page.locator('.leaflet-container path.leaflet-interactive').first()).toBeVisible();
    await expect(page.getByTestId('marker-label')).toHaveText(
      new RegExp(c.input.replace(/[ -]/g, '[ -]').replace('+', '\\+')),
    );
    await expect(page.getByTestId('place')).toContainText(new RegExp(`^Near .+, ${c.country}, \\d`));
    // Framed on the 12 m accuracy circle: the circle lies inside the map's frame. Without tiles the map stops at
    // zoom 14, where the offline place labels still read, so the circle is small there.
    const circle = page.locator('.leaflet-overlay-pane path').first();
    const frame = (await page.locator('.leaflet-container').boundingBox())!;
    await expect
      .poll(async () => {
        const b = await circle.boundingBox();
        return (
          !!b &&
          b.width > 0 &&
          b.x >= frame.x &&
          b.y >= frame.y &&
          b.x + b.width <= frame.x + frame.width &&
          b.y + b.height <= frame.y + frame.height
        );
      })
      .toBe(true);
    await expect(page.getByText('Accuracy: 12 m')).toBeVisible();
    await owner.close();
    // The map's tile host cannot be resolved on this offline machine (the built-in base layer shows instead): those
    // failed image loads are the network's, not the page's.
    expect(errors.filter((e) => !e.endsWith('Failed to load resource: net::ERR_NAME_NOT_RESOLVED'))).toEqual([]);
  });
}

test('Decline stores no location and the buyer sees the refusal', async ({ page, browser, request }) => {
  const email = uniqueEmail('decline');
  await checkNumber(page, '+44 7400 123456', email);
  await startPayment(page);
  await payWithCard(page, '4242424242424242');
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toBeVisible();
  const link = await consentLinkFromOutbox(page, '+447400123456');

  const owner = await browser.newContext({ geolocation: { latitude: 1, longitude: 2 }, permissions: ['geolocation'] });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await ownerPage.getByRole('button', { name: 'Decline' }).click();
  await expect(ownerPage.getByText('You declined. No location has been shared.')).toBeVisible();
  await expect(ownerPage.getByText('This link cannot be used again.')).toBeVisible();
  await expect(ownerPage.getByRole('button', { name: 'Share my location' })).toHaveCount(0);
  // A position sent after declining is refused.
  const code = new URL(link).searchParams.get('c');
  const late = await request.put(`/api_f/v1/spyContent/phoneLocation/${code}`, {
    headers: { website_type: '7' },
    form: { action: 'position', latitude: '1', longitude: '2', accuracy: '5' },
  });
  expect(late.status()).toBe(409);
  await owner.close();

  await page.goto('/dashboard/locations/');
  const row = page.getByTestId('location-row').first();
  await expect(row.getByTestId('location-status')).toHaveText('Declined');
  await row.getByRole('link', { name: 'Open map' }).click();
  await expect(page.getByText('The owner declined to share their location.')).toBeVisible();
  await expect(page.getByTestId('coordinates')).toHaveCount(0);
});

test('a phone number pad is enough to pay: digits only, the slash and spaces are put in, the scheme named', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await checkNumber(page, '+1 415 555 2672', uniqueEmail('keypad'));
  await startPayment(page);
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  const number = page.getByLabel('Card number');
  await expect(number).toHaveAttribute('autocomplete', 'cc-number');
  await number.pressSequentially('4242424242424242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByTestId('card-brand')).toHaveText('Visa');
  const expiry = page.getByLabel('Expiry (MM/YY)');
  await expect(expiry).toHaveAttribute('inputmode', 'numeric');
  await expect(expiry).toHaveAttribute('autocomplete', 'cc-exp');
  await expiry.pressSequentially('1234');
  await expect(expiry).toHaveValue('12/34');
  await page.getByLabel('CVC').pressSequentially('123');
  await page.getByLabel('Postal code').pressSequentially('94107');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page).toHaveURL(/\/paystatus\//);
});

test('card 4000 0000 0000 0002 is declined with Try again and creates no account', async ({ page }) => {
  const email = uniqueEmail('declined-card');
  await checkNumber(page, '+1 415 555 2671', email);
  await startPayment(page);
  await payWithCard(page, '4000 0000 0000 0002');
  await expect(page.getByText('Payment failed', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Transaction has been declined. Please contact your issuing bank', { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();

  const session = await page.request.get('/api_f/v1/admin/userSession/current');
  expect(session.status()).toBe(401);
  await page.goto('/dev/outbox/');
  await expect(page.getByRole('heading', { name: 'Outbox (development)' })).toBeVisible();
  await expect(page.locator(`[data-recipient="${email}"]`)).toHaveCount(0);
});

test('a name that claims to be the police is refused in the locate box, in its language', async ({ page }) => {
  await checkNumber(page, '+34 612 34 56 78', uniqueEmail('authority'), '/es/', 'P0licía Nacional');
  await expect(page.locator('#requesterName-error')).toHaveText(
    'Un nombre no puede hacerse pasar por la policía, un banco, un juzgado ni nuestro servicio',
  );
  await expect(page.getByTestId('pay-step')).toHaveCount(0);
});

test("the buyer's note reaches the consent page under the name, never the SMS", async ({ page, browser }) => {
  const email = uniqueEmail('note');
  await checkNumber(page, '+44 7400 555813', email);
  const step = page.getByTestId('pay-step');
  const note = step.getByLabel('A note to the owner (optional)');
  // A note with a call-back number is refused before any order is made.
  await note.fill('Call me on +44 7400 123999');
  await step.getByRole('button', { name: /^Pay / }).click();
  await expect(step.locator('#note-error')).toHaveText('The note cannot contain a phone number');
  await expect(note).toBeFocused();
  const text = 'Your phone is in my bag by mistake, please share so I can bring it back.';
  await note.fill(text);
  await expect(step.locator('#note-count')).toHaveText(`${text.length} of 140 characters`);
  await startPayment(page);
  await payWithCard(page, '4242424242424242');
  await expect(page.getByRole('heading', { name: /^Payment received/ })).toBeVisible();
  const link = await consentLinkFromOutbox(page, '+447400555813');
  const sms = page.locator('[data-testid="outbox-sms"][data-recipient="+447400555813"]').first();
  // The SMS quotes the name as the buyer wrote it, in the owner's language (a UK number: English).
  await expect(sms).toContainText('"Anna (your sister)" asks for this phone\'s location via Chamspy.');
  await expect(sms).not.toContainText('bag');

  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  const requester = ownerPage.getByTestId('requester');
  await expect(requester).toContainText(consentText.en.onBehalf);
  await expect(requester.getByTestId('owner-note')).toHaveText(`Their note${text}`);
  await ownerPage.screenshot({ path: 'test-results/screens/consent-note.png', fullPage: true });
  const axe = await new AxeBuilder({ page: ownerPage }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await owner.close();
});

test('back from the checkout, the home page shows its static sections again', async ({ page }) => {
  // The pay step moves to the checkout by client-side navigation; Back restores the home page from the router's
  // cache, with every section the server components rendered.
  await checkNumber(page, '+44 7400 123463', uniqueEmail('back'), '/es/');
  await expect(page.getByTestId('pay-step')).toBeVisible();
  await page
    .getByTestId('pay-step')
    .getByRole('radio', { name: /tarjeta|card/i })
    .check();
  await page
    .getByTestId('pay-step')
    .getByRole('button', { name: /^Pagar|^Pay / })
    .click();
  await expect(page).toHaveURL(/\/checkout\/\?order=/);
  await page.goBack();
  await expect(page).toHaveURL(/\/es\/$/);
  await expect(page.locator('#faq [data-testid="faq-item"]')).toHaveCount(6);
  await expect(page.locator('#features li')).not.toHaveCount(0);
  await expect(page.locator('footer a[href^="/es/about-us/"]')).toBeVisible();
});
