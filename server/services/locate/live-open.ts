import 'server-only';
import type { Db } from '../../db/client';
import type { LocationTrace } from '../../../lib/contracts/locations';
import { sha256 } from '../tokens';
import { requestWithPositions } from './buyer-side';
import { StreamSlots, streamSlots } from './live-slots';
import type { LiveScope } from './live-events';
import { LiveStream } from './live-streams';
import { peopleIds, peopleOf } from './people';

// Opening a buyer's live stream (services/locate/live-streams.ts): the ceilings first (./live-slots.ts), then the
// subscriptions, then the view, so that nothing committed in between is missed.

/** Who opens a stream, and where it resumes. */
export type LiveStreamOpening = {
  /** The signed-in buyer (the session check already done by the caller). */
  userId: string;
  /** The session tokens the request carried (cookie and/or app header): the stream ends when one is signed out. */
  tokens: readonly string[];
  /** The `Last-Event-ID` header (a position id) of a reconnect, or null; one request's map only. */
  lastEventId: string | null;
  /** The client's address (services/client-ip.ts `resolveClientIp`), for the per-address cap; null when unknown. */
  clientIp: string | null;
};

/**
 * Opens a stream of `scope` for the opening's user: takes its slots (`streamCaps`: a people map takes one, as one
 * request's map), subscribes to each request, then reads the view. Null when one request's map names a request that
 * is not the caller's (or does not exist): the caller answers 404; the people map always opens, empty or not. Throws
 * RateLimitedError (429 `Api.tooManyStreams`) when a cap is reached, before anything is subscribed. The returned
 * stream is not started yet (`start`); a stream that is never started must be closed, which gives its slots back.
 */
async function open(db: Db, opening: LiveStreamOpening, scope: LiveScope): Promise<LiveStream | null> {
  const resume = Number(opening.lastEventId ?? '');
  // Each token hashed once: its slot key and what a sign-out's announcement names (sessions store the same hash).
  const tokenHashes = [...new Set(opening.tokens)].map(sha256);
  const slots = StreamSlots.keysOf(opening, tokenHashes);
  streamSlots().take(slots);
  const stream = new LiveStream(
    db,
    opening.userId,
    opening.tokens,
    scope,
    scope.kind === 'request' && Number.isSafeInteger(resume) && resume > 0 ? resume : 0,
    tokenHashes,
    slots,
  );
  try {
    let view: LocationTrace[];
    if (scope.kind === 'request') {
      await stream.watch(scope.requestId);
      const trace = await requestWithPositions(db, opening.userId, scope.requestId);
      view = trace ? [trace] : [];
    } else {
      const ids = await peopleIds(db, opening.userId);
      for (const id of ids) await stream.watch(id);
      view = await peopleOf(db, opening.userId, ids);
    }
    if (view.length > 0 || scope.kind === 'people') {
      stream.setView(view);
      return stream;
    }
  } catch (error) {
    stream.close();
    throw error;
  }
  stream.close();
  return null;
}

/** Opens a stream of the caller's request `requestId` (see `open`); null when it is not theirs. */
export function openLiveStream(db: Db, opening: LiveStreamOpening & { requestId: string }): Promise<LiveStream | null> {
  return open(db, opening, { kind: 'request', requestId: opening.requestId });
}

/** Opens the people map's stream of the caller's account (see `open`; docs/features.md "The people map"). */
export async function openPeopleStream(db: Db, opening: LiveStreamOpening): Promise<LiveStream> {
  return (await open(db, opening, { kind: 'people' }))!;
}

/**
 * Whether `userId` may watch request `requestId` (its own): what a `HEAD` of the stream's URL answers, without
 * opening a stream, a listener or a slot (RFC 9110, section 9.3.2: HEAD gives the GET's header fields, no content).
 */
export async function canWatch(db: Db, userId: string, requestId: string): Promise<boolean> {
  return (await requestWithPositions(db, userId, requestId)) !== null;
}
