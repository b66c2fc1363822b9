import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/server/db/client';
import { consents, positions } from '@/server/db/schema';
import { liveHub } from '@/server/services/locate';
import { AREA_CELL_M, areaCell, distanceMeters, fixAt } from '@/lib/geo';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';

// Exact or approximate, the owner's choice (docs/decisions/0022-approximate-area-cells.md): an approximate share stores
// and shows only fixed cells of about 2 km, whatever the page sends, and the consent record keeps the choice.

const madrid = { latitude: 40.41678, longitude: -3.70379, accuracy: 8 };
const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
const gpsOf = async (id: string) => {
  const db = await getDb();
  return db
    .select()
    .from(positions)
    .where(and(eq(positions.requestId, id), eq(positions.source, 'gps')))
    .orderBy(positions.id);
};
const decisionsOf = async (id: string) => {
  const db = await getDb();
  return db.select().from(consents).where(eq(consents.requestId, id)).orderBy(consents.createdAt);
};

afterAll(() => liveHub().close());

describe('the area grid', () => {
  it('gives one cell of about 2 km for every fix inside it, and its own centre back', () => {
    for (const [lat, lng] of [
      [40.41678, -3.70379],
      [-6.2, 106.8166],
      [14.5995, 120.9842],
      [64.1466, -21.9426],
      [0, 179.999],
    ]) {
      const cell = areaCell(lat, lng);
      expect(lat).toBeGreaterThanOrEqual(cell.south);
      expect(lat).toBeLessThan(cell.north);
      expect(lng).toBeGreaterThanOrEqual(cell.west);
      expect(lng).toBeLessThan(cell.east);
      const high = distanceMeters({ latitude: cell.south, longitude: lng }, { latitude: cell.north, longitude: lng });
      const wide = distanceMeters(
        { latitude: cell.latitude, longitude: cell.west },
        { latitude: cell.latitude, longitude: cell.east },
      );
      expect(Math.abs(high - AREA_CELL_M)).toBeLessThan(5);
      expect(wide).toBeGreaterThanOrEqual(AREA_CELL_M - 1);
      expect(wide).toBeLessThan(AREA_CELL_M * 1.01);
      // Snapping is idempotent, and a point anywhere in the cell gives the same cell.
      expect(areaCell(cell.latitude, cell.longitude)).toEqual(cell);
      expect(areaCell(cell.north - 1e-9, cell.east - 1e-9)).toEqual(cell);
      expect(areaCell(cell.south + 1e-9, cell.west + 1e-9)).toEqual(cell);
    }
    // Just across an edge is the next cell.
    const cell = areaCell(madrid.latitude, madrid.longitude);
    expect(areaCell(cell.north + 1e-9, madrid.longitude).south).toBeCloseTo(cell.north, 9);
    expect(fixAt(madrid, 'exact')).toEqual(madrid);
  });
});

describe('an approximate share', () => {
  it('stores only cell centres, even when the page sends a point, and the consent record keeps the choice', async () => {
    const { id, code, cookie } = await trialRequest('area-share');
    // An old or hand-made page sends the exact point with an approximate share: the server snaps it.
    expect((await answer(code, { action: 'share', minutes: 60, precision: 'approximate', ...madrid })).status).toBe(
      200,
    );
    expect((await answer(code, { action: 'position', ...madrid, latitude: 40.4172 })).status).toBe(200);
    const cell = areaCell(madrid.latitude, madrid.longitude);
    const stored = await gpsOf(id);
    expect(stored).toHaveLength(2);
    for (const p of stored) {
      expect(p).toMatchObject({
        precision: 'approximate',
        latitude: cell.latitude,
        longitude: cell.longitude,
        accuracyM: cell.radiusM,
      });
    }
    const [shared] = await decisionsOf(id);
    expect(shared).toMatchObject({ decision: 'shared', precision: 'approximate' });
    const res = await call('GET', `/gpsTrace/phoneLocation/${id}`, { headers: { cookie } });
    const trace = ((await res.json()) as { obj: { positions: { precision: string; source: string }[] } }).obj;
    expect(trace.positions.filter((p) => p.source === 'gps').every((p) => p.precision === 'approximate')).toBe(true);
    const view = ((await (await call('GET', `/spyContent/consent/${code}`)).json()) as { obj: { precision: string } })
      .obj;
    expect(view.precision).toBe('approximate');
  });

  it('an exact share turns approximate once, of 20 taps at once; the way back is a new share', async () => {
    const { id, code } = await trialRequest('area-switch');
    expect((await answer(code, { action: 'share', minutes: 60, ...madrid })).status).toBe(200);
    const taps = await Promise.all(Array.from({ length: 20 }, () => answer(code, { action: 'approximate' })));
    expect(taps.every((r) => r.status === 200)).toBe(true);
    expect((await decisionsOf(id)).filter((d) => d.decision === 'approximated')).toHaveLength(1);
    expect((await answer(code, { action: 'position', ...madrid })).status).toBe(200);
    const [first, second] = await gpsOf(id);
    expect(first).toMatchObject({ precision: 'exact', latitude: madrid.latitude });
    expect(second).toMatchObject({ precision: 'approximate', latitude: areaCell(40.41678, -3.70379).latitude });

    // No action turns a share exact again: an unknown precision or action is refused, nothing changes.
    expect((await answer(code, { action: 'exact' })).status).toBe(422);
    expect((await answer(code, { action: 'stop' })).status).toBe(200);
    expect((await answer(code, { action: 'approximate' })).status).toBe(409);
    expect((await answer(code, { action: 'share', minutes: 15, precision: 'exact', ...madrid })).status).toBe(200);
    const again = (await gpsOf(id)).at(-1)!;
    expect(again).toMatchObject({ precision: 'exact', latitude: madrid.latitude });
    expect((await decisionsOf(id)).at(-1)).toMatchObject({ decision: 'shared_again', precision: 'exact' });
  });

  it('refuses a precision it does not know, with the localized message', async () => {
    const { code } = await trialRequest('area-bad');
    const res = await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 60, precision: 'street', ...madrid },
      ip: '81.2.69.142',
      headers: { 'accept-language': 'es' },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { msg: string }).msg).not.toMatch(/Validation\./);
  });
});
