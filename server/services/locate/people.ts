import 'server-only';
import { sql } from 'drizzle-orm';
import { PEOPLE_MAX, type LocationTrace } from '../../../lib/contracts/locations';
import { LIVE_STATES } from '../../../lib/request-machine';
import type { Db } from '../../db/client';
import { locationRequests, positions } from '../../db/schema';
import { requestWithPositions } from './buyer-side';

// The people map of "My locations" (docs/features.md "The people map"): every request of the account that is sharing,
// or has shared and still has its positions, on one map over one stream (services/locate/live-streams.ts).

/**
 * The ids of `userId`'s requests on the people map, in its order: the running shares (`sharing`, `paused`) first, then
 * the ended ones that still have a GPS fix by their newest fix (newest first); oldest request first among the running.
 * At most PEOPLE_MAX. One query on the requests' user index and the positions' request index.
 */
export async function peopleIds(db: Db, userId: string): Promise<string[]> {
  const live = sql.join(
    LIVE_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  const rows = await db.execute<{ id: string }>(sql`
    select r.id from ${locationRequests} r
      left join lateral (
        select max(p.recorded_at) as last_fix from ${positions} p where p.request_id = r.id and p.source = 'gps'
      ) f on true
     where r.user_id = ${userId}::uuid and (r.status in (${live}) or f.last_fix is not null)
     order by (r.status in (${live})) desc,
              case when r.status in (${live}) then r.created_at end asc,
              f.last_fix desc nulls last
     limit ${PEOPLE_MAX}`);
  return rows.rows.map((r) => r.id);
}

/**
 * One person of the people map: request `id` of `userId` as its trace (services/locate/buyer-side.ts
 * `requestWithPositions`: the map view is recorded for the safety centre as the single map's is) with only its newest
 * GPS fix in `positions`; null when the request is absent or someone else's.
 */
export async function personOf(db: Db, userId: string, id: string): Promise<LocationTrace | null> {
  const trace = await requestWithPositions(db, userId, id);
  if (!trace) return null;
  const newest = trace.positions.find((p) => p.source === 'gps');
  return { ...trace, positions: newest ? [newest] : [] };
}

/**
 * The people map of `userId` (lib/contracts/locations.ts `peopleSchema`): each of `ids` (by default `peopleIds`) as
 * `personOf` gives it, in that order; a request that vanished between the two reads is left out.
 */
export async function peopleOf(db: Db, userId: string, ids?: readonly string[]): Promise<LocationTrace[]> {
  const list = ids ?? (await peopleIds(db, userId));
  const people: LocationTrace[] = [];
  for (const id of list) {
    const person = await personOf(db, userId, id);
    if (person) people.push(person);
  }
  return people;
}
