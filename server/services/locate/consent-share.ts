import 'server-only';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { FUNNEL } from '../../../lib/tracking/funnel';
import { optOuts, positions, type LocationRequest } from '../../db/schema';
import { recordRequestEvent } from '../events';
import { applyEvent } from './request-transitions';
import type { IpLocation } from '../geoip';
import { alertBuyer } from './buyer-alerts';
import { buyerHasAccess } from './buyer-access';
import { fixAt } from '../../../lib/geo';
import type { SharePrecision } from '../../../lib/contracts/consent';

// The owner's Share recorded (docs/rules.md#security, docs/decisions/0003-consent-asks-the-browser-first.md): the
// consent, the window opened and the first fix stored, in the transaction of ./consent.ts `answerConsent`.

/** Writes the owner's consent record of a share (services/locate/consent.ts builds it). */
type RecordShare = (
  decision: 'shared' | 'shared_again',
  extra: { durationMinutes: number; precision: SharePrecision },
) => Promise<unknown>;

/**
 * Records the owner's share of `request` (row locked by the caller in `tx`; not sharing now): refused with `answered`
 * when the number is on the opt-out list, `withdrawn` when the buyer no longer has access. Otherwise writes the
 * consent record through `record` (`shared`, or `shared_again` after a stop, with the duration and the precision),
 * opens the window of `share.minutes` (the `shared` event of lib/request-machine.ts, with no ask for more time yet),
 * stores the IP-based area (`ipLocation`, when it was found) and the browser's first fix `share.fix` (degrees, accuracy
 * in metres) at the chosen precision (an approximate share stores the fix's area cell, never the point: lib/geo.ts
 * `fixAt`), counts the first share in the funnel and alerts the buyer (services/locate/buyer-alerts.ts). Returns
 * `sharing` and the stored fix's id, which the caller announces once committed.
 */
export async function recordShare(
  tx: Tx,
  request: LocationRequest,
  share: {
    minutes: number;
    fix: { latitude: number; longitude: number; accuracy: number };
    precision: SharePrecision;
  },
  record: RecordShare,
  ipLocation: IpLocation | null,
): Promise<{ status: 'sharing'; positionId: number } | { error: 'answered' | 'withdrawn' }> {
  const { id, status } = request;
  const [optedOut] = await tx.select().from(optOuts).where(eq(optOuts.phoneE164, request.targetE164));
  if (optedOut) return { error: 'answered' };
  if (!(await buyerHasAccess(tx, request.userId))) return { error: 'withdrawn' };
  await record(status === 'stopped' ? 'shared_again' : 'shared', {
    durationMinutes: share.minutes,
    precision: share.precision,
  });
  await applyEvent(tx, id, 'shared', {
    sharingUntil: new Date(Date.now() + share.minutes * 60_000),
    firstSharedAt: request.firstSharedAt ?? new Date(),
    locationDeniedAt: null,
    ownerSeenAt: new Date(),
    liveSignal: null,
    // One ask for more time per share: a new share starts without one.
    moreTimeAsk: null,
    precision: share.precision,
  });
  if (ipLocation?.status === 'found' && ipLocation.latitude != null && ipLocation.longitude != null) {
    await tx.insert(positions).values({
      requestId: id,
      source: 'ip',
      precision: 'approximate',
      latitude: ipLocation.latitude,
      longitude: ipLocation.longitude,
      accuracyM: ipLocation.accuracyRadiusKm != null ? ipLocation.accuracyRadiusKm * 1000 : null,
      label: [ipLocation.city, ipLocation.region, ipLocation.countryCode].filter(Boolean).join(', '),
    });
  }
  const sent = fixAt(share.fix, share.precision);
  const [fix] = await tx
    .insert(positions)
    .values({
      requestId: id,
      source: 'gps',
      precision: share.precision,
      latitude: sent.latitude,
      longitude: sent.longitude,
      accuracyM: sent.accuracy,
    })
    .returning({ id: positions.id });
  if (!request.firstSharedAt) await recordRequestEvent(tx, FUNNEL.shared, id);
  await alertBuyer(tx, request, 'shared');
  return { status: 'sharing', positionId: fix.id };
}
