import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { liveShare } from './helpers';

// Exact or approximate, the owner's choice, in Chromium with two browser contexts: the owner's phone and the buyer's
// map (docs/decisions/0022-approximate-area-cells.md). An approximate share shows an area, labelled as such, never a
// point or coordinates; an exact share can turn approximate while it runs.

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as {
    Map: Record<string, string>;
    Consent: Record<string, string>;
  };

test('an approximate share shows an area, never a point, in es, id and en-PH at 360 px', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  for (const [prefix, lang, phone, e164] of [
    ['/es', 'es', '+34 612 345 691', '+34612345691'],
    ['/id', 'id', '+62 812 3456 7941', '+6281234567941'],
    ['/ph', 'en', '+63 917 123 4591', '+639171234591'],
  ] as const) {
    const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, phone, e164, prefix);
    await map.setViewportSize({ width: 360, height: 740 });
    await ownerPage.setViewportSize({ width: 360, height: 740 });
    const words = catalogue(lang);
    await ownerPage.getByText(words.Consent.precisionArea, { exact: true }).click();
    await expect(ownerPage.getByText(words.Consent.precisionAreaNote)).toBeVisible();
    await ownerPage.locator('[data-btn-id="consent_share"]').click();
    await expect(ownerPage.getByTestId('sharing-area')).toHaveText(words.Consent.sharingArea);
    await expect(map.getByTestId('area')).toHaveText(words.Map.areaNote);
    await expect(map.getByTestId('area-label')).toContainText(words.Map.areaLabel);
    await expect(map.getByTestId('coordinates')).toHaveCount(0);
    await expect(map.getByTestId('marker-label')).toHaveCount(0);
    // Nothing on the page gives the owner's point: the exact coordinates appear nowhere.
    await expect(map.locator('body')).not.toContainText('40.41678');
    expect(await map.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await owner.close();
    await buyer.close();
  }
});

test('an exact share turns approximate while it runs; the map follows at once', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, '+1 707 555 0151', '+17075550151');
  const en = catalogue('en');
  await ownerPage.locator('[data-btn-id="consent_share"]').click();
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');
  await ownerPage.getByRole('button', { name: en.Consent.toArea }).click();
  await expect(ownerPage.getByTestId('sharing-area')).toHaveText(en.Consent.sharingArea);
  // The next fix is the first area.
  await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
  await expect(map.getByTestId('area')).toHaveText(en.Map.areaNote);
  await expect(map.getByTestId('coordinates')).toHaveCount(0);
  await expect(ownerPage.getByTestId('last-sent')).toHaveText(en.Consent.lastSentArea);
  await owner.close();
  await buyer.close();
});
