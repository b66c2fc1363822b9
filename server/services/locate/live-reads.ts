import 'server-only';
import DataLoader from 'dataloader';
import type { LiveState, Position } from '../../../lib/contracts/locations';
import { getDbState } from '../../db/client';
import { liveStatesOf, positionsAfterEach, type PositionsAsk } from './buyer-side';

// What the open streams of a process read when the live broker announces (docs/decisions/0019-live-broker.md): new
// positions after each stream's last event, and a request's state after a heartbeat. A notice reaches every stream of
// its requests in the same turn of the event loop, so their reads are gathered into one statement of each kind
// (DataLoader: the loads of one tick go out as one batch, github.com/graphql/dataloader) and run on the live path's
// own pool (server/db/client.ts `DbState.live`, the broker's notices go out on it too): at 200 fixes a second the streams cost a few statements a second, not
// one per fix and stream, and none waits behind the requests' statements of a busy process.

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
