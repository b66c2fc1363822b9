import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { liveShare } from './helpers';

// Live location in Chromium: the buyer's map follows the owner over the live stream (Server-Sent Events) and always
// says how live the share is — live, paused (page hidden, page closed), permission lost, stopped by the owner — in
// the four locales; the owner's page states that nothing is kept beyond the share.

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as {
    Map: { live: Record<string, string> };
    Consent: { noHistory: string; share: string; stop: string; confirm: string };
  };

/** `text` as a regular expression matching it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Makes the owner's page hidden or visible again, as locking the phone or switching apps does (Page Visibility). */
async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('the map follows the owner live and says when the share is paused, lost, closed or stopped', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, '+1 415 555 2681', '+14155552681');
  const en = catalogue('en');
  await expect(map.getByTestId('liveness')).toHaveText(en.Map.live.waiting);
  await expect(ownerPage.getByText(en.Consent.noHistory)).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Share my location' }).click();
  await expect(ownerPage.getByTestId('last-sent')).toBeVisible();

  const liveness = map.getByTestId('liveness');
  await expect(liveness).toHaveAttribute('data-state', 'live');
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');
  await expect(map.getByTestId('fix-age')).toContainText(/last position (now|\d+ seconds? ago)/);
  await expect(map.getByText('Updates appear as they arrive.')).toBeVisible();

  // About 1.1 km north: farther than the fix's accuracy, so it is sent at once and pushed to the map.
  await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
  await expect(map.getByTestId('coordinates')).toHaveText('40.42678, -3.70379');

  // My locations says it too, on the request's row.
  const list = await buyer.newPage();
  await list.goto('/dashboard/locations/');
  await expect(list.getByTestId('row-liveness')).toContainText(en.Map.live.live);
  await list.close();

  await setHidden(ownerPage, true);
  await expect(liveness).toHaveAttribute('data-state', 'paused');
  await expect(liveness).toHaveText(en.Map.live.paused);
  await setHidden(ownerPage, false);
  await expect(liveness).toHaveAttribute('data-state', 'live');

  // The location permission revoked in the browser while sharing (Permissions API `change`).
  await owner.clearPermissions();
  await expect(liveness).toHaveAttribute('data-state', /permission_lost|live/);
  await owner.grantPermissions(['geolocation']);
  await expect(liveness).toHaveAttribute('data-state', 'live');

  // The owner closes the page: `pagehide` sends the beacon before the page goes, and the map says paused. A heartbeat
  // sent just before may still land after the beacon; then the silence says it: offline after a minute.
  await ownerPage.close({ runBeforeUnload: true });
  await expect(liveness).toHaveAttribute('data-state', /^(paused|offline)$/, { timeout: 75_000 });
  await expect(liveness).toHaveText(new RegExp(`^(${literal(en.Map.live.paused)}|${literal(en.Map.live.offline)})$`));
  await owner.close();
  await buyer.close();
});

test('the owner stops: the map says so; every state word is localized in es, id and en-PH', async ({
  browser,
  baseURL,
}) => {
  for (const [prefix, lang, phone, e164] of [
    ['/es', 'es', '+34 612 345 672', '+34612345672'],
    ['/id', 'id', '+62 812 3456 7891', '+6281234567891'],
    ['/ph', 'en', '+63 917 123 4568', '+639171234568'],
  ] as const) {
    const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, phone, e164, prefix);
    const words = catalogue(lang);
    await expect(map.getByTestId('liveness')).toHaveText(words.Map.live.waiting);
    await expect(ownerPage.getByText(words.Consent.noHistory)).toBeVisible();
    await ownerPage.locator('[data-btn-id="consent_share"]').click();
    await expect(map.getByTestId('liveness')).toHaveText(words.Map.live.live);
    await ownerPage.getByRole('button', { name: words.Consent.stop }).click();
    await ownerPage.getByRole('button', { name: words.Consent.confirm, exact: true }).click();
    await expect(map.getByTestId('liveness')).toHaveText(words.Map.live.stopped_by_owner);
    await owner.close();
    await buyer.close();
  }
});

test("the owner's network is cut: after a minute of silence the map says offline, and live again when it is back", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, '+1 415 555 2689', '+14155552689');
  const en = catalogue('en');
  await ownerPage.getByRole('button', { name: 'Share my location' }).click();
  const liveness = map.getByTestId('liveness');
  await expect(liveness).toHaveAttribute('data-state', 'live');
  // The phone loses its network (the page stays open and visible): nothing reaches the server, not even a beacon.
  await owner.setOffline(true);
  await expect(liveness).toHaveAttribute('data-state', 'offline', { timeout: 90_000 });
  await expect(liveness).toHaveText(en.Map.live.offline);
  // The last position is still shown, with its age.
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');
  await expect(map.getByTestId('fix-age')).toContainText(/last position .*ago/);
  // The network comes back: the next heartbeat (every 20 s) makes it live again.
  await owner.setOffline(false);
  await expect(liveness).toHaveAttribute('data-state', 'live', { timeout: 40_000 });
  await owner.close();
  await buyer.close();
});
