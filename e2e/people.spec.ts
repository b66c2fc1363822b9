import { expect, request as apiRequest, test, type Page } from '@playwright/test';
import { query } from './db';
import { liveShare } from './helpers';

// The people map of "My locations" (docs/features.md "The people map"), in Chromium: five people share with one
// buyer, one of them from a real owner's browser whose geolocation moves; everyone is on one map over one stream,
// listed beside it on a desktop and under it on a phone, and a tap on a person opens their single map.

/** Four more numbers of the buyer's (the first is the browser owner's), each shared by its owner through the API. */
const OTHERS = ['+17075550172', '+17075550173', '+17075550174', '+17075550175'];

/** The marker's coordinates of person `id` on the people map ("lat,lng", 5 decimals). */
const markerOf = (page: Page, id: string) => page.locator(`[data-testid="person-marker"][data-person="${id}"]`);

test('five people on one map over one stream; a move of the owner reaches their marker; a tap opens their map', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { buyer, map, owner, ownerPage, id } = await liveShare(browser, baseURL!, '+1 707 555 0171', '+17075550171');
  await ownerPage.locator('[data-btn-id="consent_share"]').click();
  await expect(map.getByTestId('coordinates')).toHaveText('40.41678, -3.70379');

  // Four more requests of the same buyer, each shared by its owner (from a client of their own, not the buyer's).
  const ownersApi = await apiRequest.newContext({ baseURL, extraHTTPHeaders: { website_type: '7' } });
  const ids = [id];
  for (const [i, phone] of OTHERS.entries()) {
    const created = await buyer.request.post('/api_f/v1/spyContent/phoneLocation', {
      headers: { website_type: '7' },
      data: { phone, requesterName: 'Anna (your sister)' },
    });
    expect(created.status()).toBe(201);
    const { obj } = (await created.json()) as { obj: { id: string } };
    ids.push(obj.id);
    const [sms] = await query<{ body: string }>('select body from outbound_messages where location_request_id = $1', [
      obj.id,
    ]);
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
    const shared = await ownersApi.put(`/api_f/v1/spyContent/phoneLocation/${code}`, {
      data: { action: 'share', minutes: 60, latitude: 40.43 + i * 0.01, longitude: -3.69, accuracy: 20 },
    });
    expect(shared.status()).toBe(200);
  }

  // One stream for all of them, and none of the single map's.
  const streams: string[] = [];
  map.on('request', (r) => /\/live\/?$/.test(r.url()) && streams.push(new URL(r.url()).pathname));
  await map.setViewportSize({ width: 1280, height: 900 });
  await map.goto('/dashboard/locations/');
  const people = map.getByTestId('person');
  await expect(people).toHaveCount(5);
  await expect(map.getByTestId('person-marker')).toHaveCount(5);
  for (const r of ids) await expect(map.locator(`[data-testid="person"][data-person="${r}"]`)).toBeVisible();
  await expect(map.getByTestId('person-liveness').first()).toHaveAttribute('data-state', 'live');
  expect(streams).toEqual(['/api_f/v1/gpsTrace/people/live']);

  // On a desktop the list sits beside the map.
  const mapBox = (await map.locator('.leaflet-container').boundingBox())!;
  const listBox = (await map.getByTestId('people-list').boundingBox())!;
  expect(listBox.x).toBeGreaterThan(mapBox.x + mapBox.width - 1);

  // The owner moves: their marker follows, the others stay.
  await expect(markerOf(map, id)).toHaveAttribute('data-at', '40.41678,-3.70379');
  await owner.setGeolocation({ latitude: 40.4268, longitude: -3.70379, accuracy: 10 });
  await expect(markerOf(map, id)).toHaveAttribute('data-at', '40.42680,-3.70379');
  await expect(markerOf(map, ids[1])).toHaveAttribute('data-at', '40.43000,-3.69000');

  // The owner stops: the list says so, and the person stays on the map with their last fix.
  // Stop asks first.
  await ownerPage.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(ownerPage.getByText('Stop sharing your location now?')).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Yes' }).click();
  await expect(map.locator(`[data-person="${id}"] [data-testid="person-liveness"]`)).toHaveAttribute(
    'data-state',
    'stopped_by_owner',
  );
  await expect(markerOf(map, id)).toBeVisible();

  // On a phone in Spanish the list is under the map and nothing scrolls sideways; a tap opens that person's map.
  await map.setViewportSize({ width: 360, height: 740 });
  await map.goto('/es/dashboard/locations/');
  await expect(map.getByRole('heading', { name: 'Todos los que comparten contigo' })).toBeVisible();
  await expect(map.getByTestId('person')).toHaveCount(5);
  const phoneMap = (await map.locator('.leaflet-container').boundingBox())!;
  const phoneList = (await map.getByTestId('people-list').boundingBox())!;
  expect(phoneList.y).toBeGreaterThanOrEqual(phoneMap.y + phoneMap.height);
  expect(await map.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await map.locator(`[data-testid="person"][data-person="${ids[2]}"] a`).click();
  await expect(map).toHaveURL(new RegExp(`/es/map/\\?id=${ids[2]}`));
  await expect(map.getByTestId('coordinates')).toHaveText('40.44000, -3.69000');
  await ownersApi.dispose();
  await owner.close();
  await buyer.close();
});
