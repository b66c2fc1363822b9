import { expect, test } from '@playwright/test';
import { buyThroughApi, consentLinkFromOutbox, uniqueEmail } from './helpers';

/**
 * `npm run demo:images`: regenerates the home page's "See it before you pay" images from the real pages,
 * in each language (public/demo/{en,id,es}/consent.png and map.png; /ph uses en). A demo buyer asks for a Spanish test
 * number, the owner page is shot as the owner sees it, then the owner shares a Madrid test position and the buyer's
 * map is shot. No tile server is reachable here, so the map shows the built-in Natural Earth base layer, as any
 * visitor whose tiles do not load would see it. Runs only with DEMO_IMAGES=1 (it rewrites committed files).
 */
test.skip(!process.env.DEMO_IMAGES, 'regenerates committed images; run with npm run demo:images');

const LANGS = [
  { lang: 'en', prefix: '', phone: '+34612340001', name: 'Anna (your sister)' },
  { lang: 'es', prefix: '/es', phone: '+34612340002', name: 'Ana (tu hermana)' },
  { lang: 'id', prefix: '/id', phone: '+34612340003', name: 'Anna (kakak Anda)' },
];

for (const { lang, prefix, phone, name } of LANGS) {
  test(`demo images in ${lang}`, async ({ browser, baseURL }) => {
    const options = { viewport: { width: 375, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
    const buyer = await browser.newContext({ ...options, baseURL });
    const api = buyer.request;
    const token = await buyThroughApi(api, phone, uniqueEmail(`demo-${lang}`));
    // The request in this language, naming the requester as a buyer would.
    const created = await api.post('/api_f/v1/spyContent/phoneLocation', {
      headers: { website_type: '7', cookie: `token=${token}` },
      form: { phone, requesterName: name, locale: lang },
    });
    expect(created.status()).toBe(201);
    const { obj } = await created.json();
    const page = await buyer.newPage();
    const link = await consentLinkFromOutbox(page, phone);
    expect(link).toContain(`${prefix}/location/`);

    const owner = await browser.newContext({
      ...options,
      baseURL,
      geolocation: { latitude: 40.41678, longitude: -3.70379, accuracy: 12 },
      permissions: ['geolocation'],
    });
    await owner.addCookies([{ name: 'acceptCookie', value: '0', url: baseURL! }]);
    const ownerPage = await owner.newPage();
    await ownerPage.goto(link);
    await expect(ownerPage.getByTestId('requester')).toContainText(name);
    // The sticky header would cover part of an element shot.
    await ownerPage.addStyleTag({ content: 'header { position: static !important; }' });
    await ownerPage.getByTestId('consent-panel').screenshot({ path: `public/demo/${lang}/consent.png` });
    await ownerPage.locator('button[data-btn-id="consent_share"]').click();
    await expect(ownerPage.getByTestId('last-sent')).toBeVisible();

    await buyer.addCookies([{ name: 'acceptCookie', value: '0', url: baseURL! }]);
    await page.goto(`${prefix}/map/?id=${obj.id}`);
    await expect(page.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');
    await expect(page.locator('.leaflet-offline-base-pane path').first()).toBeAttached();
    await page.waitForTimeout(1500);
    await page.locator('main').screenshot({ path: `public/demo/${lang}/map.png` });
    await owner.close();
    await buyer.close();
  });
}
