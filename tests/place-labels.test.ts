import { describe, expect, it } from 'vitest';
import { LABEL_CELL_PX, MAX_LABEL_TILES, placeLabelsSchema } from '@/lib/contracts/places';
import { placeLabels } from '@/server/services/locate';
import { call } from './support/accounts';

// The maps' place labels without tiles (lib/contracts/places.ts, server/services/locate/places.ts, GET /other/places):
// the offline gazetteer's places for a block of Web Mercator tiles, at most one per 128 × 40 px cell.

/** The XYZ tile holding (`lat`, `lng`) at zoom `z` (OpenStreetMap's "Slippy map tilenames"). */
function tileOf(lat: number, lng: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

/** Where a place falls on the whole map at zoom `z`, in px (Web Mercator), as the service counts cells. */
function pixelOf(lat: number, lng: number, z: number): [number, number] {
  const size = 256 * 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [((lng + 180) / 360) * size, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size];
}

/** The 3 × 3 tiles around Puerta del Sol, Madrid, at zoom `z`. */
function aroundSol(z: number) {
  const { x, y } = tileOf(40.41678, -3.70379, z);
  return { z, x0: x - 1, y0: y - 1, x1: x + 1, y1: y + 1 };
}

describe('place labels for a map without tiles', () => {
  it('names the places around a position at the zoom a share is shown at, inside the block asked for', async () => {
    const q = aroundSol(14);
    const { places } = await placeLabels(q);
    const names = places.map((p) => p.name);
    expect(names.length).toBeGreaterThan(2);
    // Sol and Madrid share a cell (they are 50 m apart): one of them is named, and a neighbouring quarter too.
    expect(names.some((n) => n === 'Sol' || n === 'Madrid' || n === 'Madrid Centro')).toBe(true);
    expect(names.some((n) => ['Lavapiés', 'La Latina', 'Las Cortes', 'Justicia', 'Arganzuela'].includes(n))).toBe(true);
    const north = (Math.atan(Math.sinh(Math.PI * (1 - (2 * q.y0) / 2 ** q.z))) * 180) / Math.PI;
    const west = (q.x0 / 2 ** q.z) * 360 - 180;
    for (const p of places) {
      expect(p.latitude).toBeLessThanOrEqual(north);
      expect(p.longitude).toBeGreaterThanOrEqual(west);
    }
  });

  it('keeps at most one place per 128 × 40 px cell, so that labels do not pile up; the same cell names the same place', async () => {
    for (const z of [10, 12, 14, 16]) {
      const { places } = await placeLabels(aroundSol(z));
      const cells = places.map((p) => {
        const [px, py] = pixelOf(p.latitude, p.longitude, z);
        return `${Math.floor(px / LABEL_CELL_PX.width)}:${Math.floor(py / LABEL_CELL_PX.height)}`;
      });
      expect(new Set(cells).size).toBe(cells.length);
    }
    // A block shifted by one tile east names the same place in every cell that lies wholly in both blocks.
    const base = aroundSol(13);
    const shifted = { ...base, x0: base.x0 + 1, x1: base.x1 + 1 };
    const [a, b] = [await placeLabels(base), await placeLabels(shifted)];
    const inB = new Set(b.places.map((p) => p.name));
    const inBoth = a.places.filter((p) => {
      const cell = Math.floor(pixelOf(p.latitude, p.longitude, 13)[0] / LABEL_CELL_PX.width);
      return cell * LABEL_CELL_PX.width >= shifted.x0 * 256 && (cell + 1) * LABEL_CELL_PX.width <= (base.x1 + 1) * 256;
    });
    expect(inBoth.length).toBeGreaterThan(0);
    for (const p of inBoth) expect(inB.has(p.name)).toBe(true);
  });

  it('is an empty list in the open sea', async () => {
    const { x, y } = tileOf(0, -30, 12);
    expect((await placeLabels({ z: 12, x0: x, y0: y, x1: x, y1: y })).places).toEqual([]);
  });

  it('GET /other/places answers the contract, public and cached a day; a block too large, too far out or reversed is 422', async () => {
    const q = aroundSol(14);
    const res = await call('GET', `/other/places?z=${q.z}&x0=${q.x0}&y0=${q.y0}&x1=${q.x1}&y1=${q.y1}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const body = await res.json();
    expect(placeLabelsSchema.parse(body.obj).places.length).toBeGreaterThan(2);

    const side = Math.ceil(Math.sqrt(MAX_LABEL_TILES)) + 1;
    for (const bad of [
      `z=14&x0=${q.x0}&y0=${q.y0}&x1=${q.x0 + side}&y1=${q.y0 + side}`,
      `z=5&x0=1&y0=1&x1=2&y1=2`,
      `z=14&x0=${q.x1}&y0=${q.y0}&x1=${q.x0}&y1=${q.y1}`,
      `z=9&x0=0&y0=0&x1=512&y1=1`,
      `z=14&x0=a&y0=1&x1=2&y1=2`,
    ]) {
      expect((await call('GET', `/other/places?${bad}`)).status, bad).toBe(422);
    }
  });
});
