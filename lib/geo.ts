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
