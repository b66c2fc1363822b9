import { expect, test } from '@playwright/test';
import { query } from './db';
import { liveShare } from './helpers';

// Fixes driven by viewers, in Chromium with two browser contexts (docs/decisions/0023-fixes-driven-by-viewers.md):
// "Refresh now" on the buyer's map gets a fresh fix from the owner's open page, and that page rests its GPS while no
// map is open and takes it up again when one opens.

test('Refresh now brings a fix the owner page would not have sent; the page rests while no map is open', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(210_000);
  const { buyer, map, owner, ownerPage, id } = await liveShare(browser, baseURL!, '+1 707 555 0161', '+17075550161');
  await ownerPage.locator('[data-btn-id="consent_share"]').click();
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');

  // About 40 m away with a 80 m accuracy: inside the fix's noise, so the page does not send it by itself.
  await owner.setGeolocation({ latitude: 40.41714, longitude: -3.70379, accuracy: 80 });
  const heard = ownerPage.waitForResponse(
    async (r) => /\/presence\/?$/.test(r.url()) && (await r.text()).includes('"fixWantedAt":"'),
    { timeout: 30_000 },
  );
  await map.getByRole('button', { name: 'Refresh now' }).click();
  await expect(map.getByTestId('refresh-asked')).toBeVisible();
  // The owner's page hears it with its next heartbeat (every 20 s) and asks the browser for a fresh fix, which comes
  // with the phone's next reading (the emulated phone gives one when its position is set again).
  await heard;
  await owner.setGeolocation({ latitude: 40.41714, longitude: -3.70379, accuracy: 79 });
  await expect(map.getByTestId('coordinates')).toHaveText('40.41714, -3.70379', { timeout: 15_000 });

  // No map open any more (its mark run out; "My locations" has the people map, a map too): after a minute's grace the
  // page rests; a map opened again wakes it.
  await map.goto('/dashboard/account/');
  await query("update location_requests set watched_until = now() - interval '1 second' where id = $1", [id]);
  const note = ownerPage.getByTestId('rest-note');
  await expect(note).toHaveAttribute('data-resting', 'true', { timeout: 100_000 });
  await map.goto(`/map/?id=${id}`);
  await expect(note).toHaveAttribute('data-resting', 'false', { timeout: 30_000 });
  await owner.setGeolocation({ latitude: 40.42678, longitude: -3.70379, accuracy: 10 });
  await expect(map.getByTestId('coordinates')).toHaveText('40.42678, -3.70379');
  await owner.close();
  await buyer.close();
});
