/** Mean Earth radius (m), IUGG. */
const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres between two points given in degrees (haversine formula). */
export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The owner's page sends a fix when it is 15 s after the last one sent, or as soon as the phone moved farther than
 * the fix's own accuracy radius (a smaller move cannot be told from the fix's noise), and never farther than
 * SEND_DISTANCE_M without sending. So a buyer watching a moving phone sees each real move at once, and a still phone
 * costs one fix per 15 s.
 */
export const SEND_INTERVAL_MS = 15_000;
/** The most a phone moves without its page sending a fix (m), whatever the fix's accuracy. */
export const SEND_DISTANCE_M = 100;

/**
 * Whether a new fix should be sent, given the last one sent (null: none yet); `at` in ms, `accuracy` in metres (the
 * 68% radius of the Geolocation API's `coords.accuracy`; absent: SEND_DISTANCE_M).
 */
export function shouldSendFix(
  last: { latitude: number; longitude: number; at: number } | null,
  next: { latitude: number; longitude: number; at: number; accuracy?: number },
): boolean {
  if (!last) return true;
  const threshold = Math.min(next.accuracy ?? SEND_DISTANCE_M, SEND_DISTANCE_M);
  return next.at - last.at >= SEND_INTERVAL_MS || distanceMeters(last, next) > threshold;
}

/**
 * The side of an approximate area (m): the owner may share "an approximate area (about 2 km)" instead of the exact
 * position (docs/decisions/0022-approximate-area-cells.md), as Android's and iOS's "approximate location" give apps a
 * position only to within a few kilometres.
 */
export const AREA_CELL_M = 2_000;

/** The height of a cell in degrees of latitude: AREA_CELL_M along a meridian. */
const CELL_LAT_DEG = AREA_CELL_M / ((EARTH_RADIUS_M * Math.PI) / 180);

/** One cell of the fixed grid of approximate areas: its edges and centre in degrees, its half-diagonal in metres. */
export type AreaCell = {
  south: number;
  west: number;
  north: number;
  east: number;
  latitude: number;
  longitude: number;
  /** From the centre to a corner (m): the radius that holds the whole cell. */
  radiusM: number;
};

/**
 * The cell of the fixed grid that holds (`latitude`, `longitude`), in degrees. Rows are AREA_CELL_M high; each row is
 * cut into a whole number of cells about AREA_CELL_M wide at the row's middle latitude, so cells tile the globe with
 * no seam at the antimeridian. The grid does not depend on the phone or the share: every fix inside one cell gives
 * the same cell, so averaging many fixes reveals nothing finer. The centre lies in its own cell (snapping is
 * idempotent), which lets the server snap again whatever a page sends.
 */
export function areaCell(latitude: number, longitude: number): AreaCell {
  const rows = Math.ceil(180 / CELL_LAT_DEG);
  const row = Math.min(rows - 1, Math.max(0, Math.floor((latitude + 90) / CELL_LAT_DEG)));
  const south = -90 + row * CELL_LAT_DEG;
  const north = Math.min(90, south + CELL_LAT_DEG);
  const middle = (south + north) / 2;
  const width = Math.cos((middle * Math.PI) / 180) * 2 * Math.PI * EARTH_RADIUS_M;
  const columns = Math.max(1, Math.floor(width / AREA_CELL_M));
  const step = 360 / columns;
  const column = Math.min(columns - 1, Math.max(0, Math.floor((longitude + 180) / step)));
  const west = -180 + column * step;
  const east = west + step;
  const centre = { latitude: middle, longitude: (west + east) / 2 };
  return {
    south,
    west,
    north,
    east,
    ...centre,
    radiusM: Math.round(distanceMeters(centre, { latitude: south, longitude: west })),
  };
}

/**
 * A browser fix as a share of `precision` sends and stores it: unchanged when `exact`; when `approximate`, the centre
 * of its area cell (`areaCell`) with the cell's half-diagonal as the accuracy (m). The owner's page applies it before
 * a fix leaves the phone, the server again before it stores one (server/services/locate/consent.ts, owner-signals.ts).
 */
export function fixAt<F extends { latitude: number; longitude: number; accuracy: number }>(
  fix: F,
  precision: 'exact' | 'approximate',
): { latitude: number; longitude: number; accuracy: number } {
  if (precision === 'exact') return { latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy };
  const cell = areaCell(fix.latitude, fix.longitude);
  return { latitude: cell.latitude, longitude: cell.longitude, accuracy: cell.radiusM };
}
