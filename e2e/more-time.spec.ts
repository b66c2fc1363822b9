import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { liveShare } from './helpers';

// More time during a share, in Chromium with two browser contexts (the owner's phone and the buyer's map): the owner
// adds time from their page and the buyer's map shows the new end at once; the buyer asks once, the owner's open page
// shows the ask and nothing changes until the owner taps (docs/decisions/0021-more-time-is-the-owners-decision.md).

type Words = {
  Map: Record<string, string>;
  Consent: Record<string, string>;
};
const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as Words;

/** Nothing wider than the screen: a page that scrolls sideways at 360 px hides its buttons. */
const widthOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the owner adds an hour and the map shows the new end at once; an ask is answered with No', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, '+1 707 555 0141', '+17075550141');
  const en = catalogue('en');
  await ownerPage.getByRole('radio', { name: en.Consent.minutes15 }).check({ force: true });
  await ownerPage.locator('[data-btn-id="consent_share"]').click();
  const until = map.getByTestId('shares-until');
  await expect(until).toBeVisible();
  const first = await until.textContent();

  await ownerPage.getByTestId('add-60').click();
  await expect(until).not.toHaveText(first!);
  await expect(ownerPage.getByTestId('sharing-until')).toContainText(
    (await until.textContent())!.replace(/^Shares until /, ''),
  );

  await map.getByTestId('ask-more-time').click();
  await expect(map.getByTestId('more-time-state')).toHaveText(en.Map.moreTimeAsked);
  // The owner's open page hears of it with its next fix (or heartbeat): a step of about 1 km sends one at once.
  await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
  const ask = ownerPage.getByTestId('more-time-ask');
  await expect(ask).toBeVisible({ timeout: 30_000 });
  await expect(ask).toContainText('asks for more time');
  const end = await until.textContent();
  await ask.getByTestId('keep-end').click();
  await expect(map.getByTestId('more-time-state')).toHaveText(en.Map.moreTimeRefused);
  await expect(until).toHaveText(end!);
  await expect(ownerPage.getByTestId('more-time')).toBeVisible();
  await owner.close();
  await buyer.close();
});

test('at 360 px in es, id and en-PH: the ask reaches the owner in their language and +15 min grants it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  for (const [prefix, lang, phone, e164] of [
    ['/es', 'es', '+34 612 345 681', '+34612345681'],
    ['/id', 'id', '+62 812 3456 7931', '+6281234567931'],
    ['/ph', 'en', '+63 917 123 4581', '+639171234581'],
  ] as const) {
    const { buyer, map, owner, ownerPage } = await liveShare(browser, baseURL!, phone, e164, prefix);
    await map.setViewportSize({ width: 360, height: 740 });
    await ownerPage.setViewportSize({ width: 360, height: 740 });
    const words = catalogue(lang);
    await ownerPage.locator('[data-btn-id="consent_share"]').click();
    await expect(map.getByTestId('shares-until')).toBeVisible();
    const before = await map.getByTestId('shares-until').textContent();
    await map.getByRole('button', { name: words.Map.askMoreTime }).click();
    await expect(map.getByTestId('more-time-state')).toHaveText(words.Map.moreTimeAsked);
    expect(await widthOverflow(map)).toBeLessThanOrEqual(0);

    await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
    const ask = ownerPage.getByTestId('more-time-ask');
    await expect(ask).toBeVisible({ timeout: 30_000 });
    await expect(ask.getByRole('button', { name: words.Consent.keepEnd })).toBeVisible();
    expect(await widthOverflow(ownerPage)).toBeLessThanOrEqual(0);
    await ask.getByRole('button', { name: words.Consent.addMinutes15 }).click();
    await expect(map.getByTestId('more-time-state')).toHaveText(words.Map.moreTimeGranted);
    await expect(map.getByTestId('shares-until')).not.toHaveText(before!);
    await owner.close();
    await buyer.close();
  }
});
