import { describe, expect, it } from 'vitest';
import { nearestPlace } from '@/server/services/locate';

describe('nearest named place from offline data (server/services/locate/places.ts)', () => {
  it('names the town, its region and country, with the distance in metres', async () => {
    // Puerta del Sol, Madrid: GeoNames lists the quarter itself.
    const sol = await nearestPlace(40.4169, -3.7035);
    expect(sol).toMatchObject({ name: 'Sol', region: 'Madrid', country: 'ES' });
    expect(sol!.distanceM).toBeLessThan(3000);
    // A village field in Castile: the nearest village, not a big city far away.
    const field = await nearestPlace(41.0, -4.0);
    expect(field!.country).toBe('ES');
    expect(field!.distanceM).toBeLessThan(15_000);
    // Central Jakarta.
    expect(await nearestPlace(-6.1754, 106.8272)).toMatchObject({ country: 'ID' });
  });

  it('says nothing in the open ocean rather than naming a far place', async () => {
    expect(await nearestPlace(0, -30)).toBeNull();
  });
});
