import 'server-only';
import DataLoader from 'dataloader';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { LiveState, Position } from '../../../lib/contracts/locations';
import { buyerState } from '../../../lib/request-machine';
import { getDbState, type Db } from '../../db/client';
import { locationRequests, positions } from '../../db/schema';
import { positionOf } from './buyer-side';

// What the open streams of a process read when the live broker announces (docs/decisions/0019-live-broker.md): new
// positions after each stream's last event, and a request's state after a heartbeat. A notice reaches every stream of
// its requests in the same turn of the event loop, so their reads are gathered into one statement of each kind
// (DataLoader: the loads of one tick go out as one batch, github.com/graphql/dataloader) and run on the live path's
// own pool (server/db/client.ts `DbState.live`, the broker's notices go out on it too): at 200 fixes a second the
// streams cost a few statements a second, not one per fix and stream, and none waits behind the requests' statements
// of a busy process.

/** One stream's question to `positionsAfterEach`: request `requestId`'s positions after position `afterId`. */
export type PositionsAsk = { requestId: string; afterId: number };

/**
 * For each ask, the positions of its request after its position, oldest first, at most `limit` each, in the order of
 * `asks`: one statement for every stream of the process that heard of new positions at once (each request's rows
 * through a LATERAL subquery, PostgreSQL docs, "LATERAL Subqueries"). The callers have checked that each request is
 * their buyer's when their stream opened.
 */
export async function positionsAfterEach(db: Db, asks: readonly PositionsAsk[], limit = 100): Promise<Position[][]> {
  const found: Position[][] = asks.map(() => []);
  if (asks.length === 0) return found;
  const requestIds = sql.param(asks.map((a) => a.requestId));
  const afterIds = sql.param(asks.map((a) => a.afterId));
  const after = db
    .select()
    .from(positions)
    .where(and(eq(positions.requestId, sql`ask.request_id`), gt(positions.id, sql`ask.after_id`)))
    .orderBy(asc(positions.id))
    .limit(limit)
    .as('after');
  const rows = await db
    .select({ i: sql<string>`ask.i`, ...after._.selectedFields })
    .from(sql`unnest(${requestIds}::uuid[], ${afterIds}::bigint[]) with ordinality as ask(request_id, after_id, i)`)
    .innerJoinLateral(after, sql`true`)
    .orderBy(sql`ask.i`, after.id);
  for (const row of rows) found[Number(row.i) - 1].push(positionOf(row));
  return found;
}

/**
 * The live state of each request of `requestIds` as the buyer's stream sends it (`state` event), keyed by request id:
 * the buyer's status, when the owner's page was last heard from, what it said, the end of the share (ISO 8601 UTC) and
 * the requester's ask for more time; a request that is gone is left out. One read by primary key for every stream of
 * the process that heard of a heartbeat at once, without the clock's settling (the stream's own upkeep and the
 * trigger's changes do).
 */
export async function liveStatesOf(db: Db, requestIds: readonly string[]): Promise<Map<string, LiveState>> {
  const states = new Map<string, LiveState>();
  if (requestIds.length === 0) return states;
  const rows = await db
    .select({
      id: locationRequests.id,
      status: locationRequests.status,
      firstSharedAt: locationRequests.firstSharedAt,
      ownerSeenAt: locationRequests.ownerSeenAt,
      liveSignal: locationRequests.liveSignal,
      sharingUntil: locationRequests.sharingUntil,
      moreTime: locationRequests.moreTimeAsk,
    })
    .from(locationRequests)
    .where(inArray(locationRequests.id, [...new Set(requestIds)]));
  for (const row of rows)
    states.set(row.id, {
      status: buyerState(row.status, row.firstSharedAt !== null),
      ownerSeenAt: row.ownerSeenAt?.toISOString() ?? null,
      liveSignal: row.liveSignal,
      sharingUntil: row.sharingUntil?.toISOString() ?? null,
      moreTime: row.moreTime,
    });
  return states;
}

/** At most this many asks in one statement (a notice names up to 120 requests; a process may hold thousands). */
const MAX_BATCH = 500;

/** One process's gathered reads for its live streams (`liveReads()`). */
class LiveReads {
  private readonly positions = new DataLoader<PositionsAsk, Position[]>(
    async (asks) => positionsAfterEach((await getDbState()).live, asks),
    { cache: false, maxBatchSize: MAX_BATCH },
  );

  private readonly states = new DataLoader<string, LiveState | null>(
    async (ids) => {
      const found = await liveStatesOf((await getDbState()).live, ids);
      return ids.map((id) => found.get(id) ?? null);
    },
    { cache: false, maxBatchSize: MAX_BATCH },
  );

  /**
   * The positions of request `requestId` after position `afterId`, oldest first, at most 100 (read with every other
   * stream's ask of the same tick). The caller has checked that the request is its buyer's. Rejects when the database
   * does not answer.
   */
  positionsAfter(requestId: string, afterId: number): Promise<Position[]> {
    return this.positions.load({ requestId, afterId });
  }

  /**
   * Request `requestId`'s live state as the `state` event sends it (services/locate/buyer-side.ts `liveStatesOf`), or
   * null when it is gone; read with every other stream's ask of the same tick. Rejects when the database does not
   * answer.
   */
  stateOf(requestId: string): Promise<LiveState | null> {
    return this.states.load(requestId);
  }
}

const KEY = Symbol.for('app.liveReads');

/** This process's gathered reads for its live streams (one per process, shared by every module instance). */
export function liveReads(): LiveReads {
  const g = globalThis as unknown as Record<symbol, LiveReads | undefined>;
  return (g[KEY] ??= new LiveReads());
}
