import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { locationRequests, type LocationRequest } from '../../db/schema';
import { LIVE_STATES, isLive } from '../../../lib/request-machine';
import type { SharePrecision } from '../../../lib/contracts/consent';

// Exact or approximate, the owner's choice (docs/decisions/0022-approximate-area-cells.md): an approximate share stores
// only the centre of a fixed cell of about 2 km (lib/geo.ts `areaCell`) with the cell's half-diagonal as its accuracy.
// The owner's page snaps each fix before it leaves the phone; the server snaps again (lib/geo.ts `fixAt`, in the share
// and the fix statement), so a page that sent a point anyway (an old page, a hand-made request) stores the same cell.

/** Writes the owner's consent record `approximated` (services/locate/consent.ts builds it). */
type RecordApproximation = (decision: 'approximated', extra: { precision: SharePrecision }) => Promise<unknown>;

/**
 * The owner turns a running exact share into an approximate one (`request` read under `FOR UPDATE` in `tx`): from now
 * on only area cells are stored, and the consent record `approximated` keeps the choice. Going back to exact needs a
 * new share (a new tap on Share, with its own consent). Already approximate: nothing changes. Returns the state, or
 * `not_sharing` when no share runs.
 */
export async function approximateShare(
  tx: Tx,
  request: LocationRequest,
  record: RecordApproximation,
): Promise<{ status: LocationRequest['status'] } | { error: 'not_sharing' }> {
  if (!isLive(request.status)) return { error: 'not_sharing' };
  if (request.precision === 'approximate') return { status: request.status };
  await tx
    .update(locationRequests)
    .set({ precision: 'approximate' })
    .where(and(eq(locationRequests.id, request.id), inArray(locationRequests.status, LIVE_STATES)));
  await record('approximated', { precision: 'approximate' });
  return { status: request.status };
}
