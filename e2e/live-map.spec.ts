import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { liveShare } from './helpers';

// The buyer's map (components/dashboard/leaflet-map.tsx) without map tiles, as this machine and in-app browsers that
// block the tile host see it: it frames the trail and the accuracy circle, follows the trail until the buyer moves the
// map by hand (then offers Recentre), and the built-in base map names the places around (GET /other/places).

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../messages/${lang}.json`, import.meta.url), 'utf8')) as {
    Map: { recentre: string; offlineBase: string };
  };

/** The box of the map's container and of the trail's line, in CSS px of the page. */
async function boxes(map: Page) {
  const container = (await map.locator('.leaflet-container').boundingBox())!;
  // The trail is the overlay pane's line with a stroke opacity of 0.6 (the circles are filled).
  const trail = (await map.locator('.leaflet-overlay-pane path[stroke-opacity="0.6"]').boundingBox())!;
  return { container, trail };
}

/** Whether `inner` lies inside `outer` (1 px of rounding allowed). */
function inside(
  inner: { x: number; y: number; width: number; height: number },
  outer: { x: number; y: number; width: number; height: number },
) {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

test('the map without tiles names the places around, frames the trail as it grows, and leaves a map moved by hand where it is', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { buyer, map, owner, ownerPage, id } = await liveShare(browser, baseURL!, '+1 415 555 2668', '+14155552668');
  const en = catalogue('en');
  await ownerPage.getByRole('button', { name: 'Share my location' }).click();
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');

  // No tiles here: the built-in map says so and names the quarters of Madrid around the position.
  await expect(map.locator('.leaflet-container')).toHaveAttribute('data-offline-base', 'shown');
  await expect(map.getByTestId('offline-base-note')).toHaveText(en.Map.offlineBase);
  const labels = map.getByTestId('place-label');
  await expect(labels.first()).toBeVisible();
  expect(await labels.allTextContents()).toEqual(
    expect.arrayContaining([expect.stringMatching(/^(Sol|Madrid|Madrid Centro|Lavapiés|La Latina|Las Cortes)$/)]),
  );
  await expect(map.locator('.leaflet-control-attribution')).toContainText('GeoNames');

  // The owner walks 6 km north, out of the first frame: the map zooms out to hold the whole trail.
  await owner.setGeolocation({ latitude: 40.47078, longitude: -3.70379, accuracy: 10 });
  await expect(map.getByTestId('fixes').locator('li')).toHaveCount(2);
  await expect
    .poll(async () => {
      const { trail, container } = await boxes(map);
      return inside(trail, container);
    })
    .toBe(true);
  await expect(map.getByTestId('map-recentre')).toHaveCount(0);

  // The buyer drags the map: the next fix moves nothing, and Recentre is offered.
  const { container } = await boxes(map);
  await map.mouse.move(container.x + container.width / 2, container.y + container.height / 2);
  await map.mouse.down();
  await map.mouse.move(container.x + container.width / 2 - 150, container.y + container.height / 2 + 60, { steps: 8 });
  await map.mouse.up();
  // Leaflet's inertia carries a fast drag on for a moment: the view is the buyer's once it has come to rest.
  await map.waitForTimeout(1500);
  await expect(map.getByTestId('map-recentre')).toHaveText(en.Map.recentre);
  const pane = map.locator('.leaflet-map-pane');
  const moved = await pane.getAttribute('style');
  await owner.setGeolocation({ latitude: 40.52078, longitude: -3.70379, accuracy: 10 });
  await expect(map.getByTestId('fixes').locator('li')).toHaveCount(3);
  await map.waitForTimeout(500);
  expect(await pane.getAttribute('style')).toBe(moved);

  // Recentre frames the whole trail again, and the map follows again.
  await map.getByTestId('map-recentre').click();
  await expect(map.getByTestId('map-recentre')).toHaveCount(0);
  const after = await boxes(map);
  expect(inside(after.trail, after.container)).toBe(true);

  if (process.env.SHOTS) {
    // Screenshots of the map in the four locales at 360, 390 and 1280 px (looked at by hand, not compared).
    for (const prefix of ['', '/es', '/id', '/ph']) {
      for (const width of [360, 390, 1280]) {
        await map.setViewportSize({ width, height: width < 1000 ? 800 : 900 });
        await map.goto(`${prefix}/map/?id=${id}`);
        await expect(map.getByTestId('place-label').first()).toBeVisible();
        await map.waitForTimeout(300);
        await map.screenshot({
          path: `test-results/shots/map${prefix.replace('/', '-') || '-en'}-${width}.png`,
          fullPage: true,
        });
      }
    }
  }
  await owner.close();
  await buyer.close();
});
