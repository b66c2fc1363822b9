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

/** ISSUE 5: a position is sent at most every 10 s, unless the phone moved more than 25 m since the last one sent. */
export const SEND_INTERVAL_MS = 10_000;
export const SEND_DISTANCE_M = 25;

/** Whether a new fix should be sent, given the last one sent (null: none yet) and the time since it (ms). */
export function shouldSendFix(
  last: { latitude: number; longitude: number; at: number } | null,
  next: { latitude: number; longitude: number; at: number },
): boolean {
  if (!last) return true;
  return next.at - last.at >= SEND_INTERVAL_MS || distanceMeters(last, next) > SEND_DISTANCE_M;
}
