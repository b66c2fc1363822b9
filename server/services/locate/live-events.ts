import 'server-only';
import { liveStateSchema, type LiveState, type LocationTrace } from '../../../lib/contracts/locations';

// The wire of the live streams, for one request's map and the people map alike (services/locate/live-streams.ts):
// what a stream shows, where the bytes go, how long a stream lives, and the text of its events (WHATWG HTML,
// "Server-sent events": `event:`, `data:`, `id:` and `retry:` fields).

/**
 * What one stream shows. `request`: one request's map (`trace`, then `position` events whose id the browser sends
 * back as Last-Event-ID, `state`, `place`). `people`: the people map (services/locate/people.ts): a `people` event with
 * every person, then `position` (GPS fixes only), `state` and `place` events naming their request in `r`, `person`
 * (one person's whole view again: it ended, or joined the map) and `gone` (it left the map); no event ids, as a
 * reconnect gets the whole map again.
 */
export type LiveScope = { kind: 'request'; requestId: string } | { kind: 'people' };

/**
 * A stream ends after this long and the browser's EventSource reconnects by itself with `Last-Event-ID`, which checks
 * the session and the ownership again and bounds a stream's life (ms).
 */
export const STREAM_LIFETIME_MS = 10 * 60_000;
/**
 * A client that has not taken this many bytes of its stream is too slow to follow (or gone without a close): the
 * stream ends, and the browser's reconnect with `Last-Event-ID` sends what it missed (bytes). Applied where the sink
 * can tell what is queued (the Node server's path); Hono's stream does not say, so under `next start` and `next dev`
 * a slow client's events wait in memory until the stream's lifetime ends it.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/**
 * The reconnection time a stream ended by a shutdown tells its browser (the `retry:` field, WHATWG HTML "Server-sent
 * events"): between RESUME_RETRY_MS and twice it, spread so the reconnects do not all arrive at once (ms).
 */
export const RESUME_RETRY_MS = 1_000;

/** Where a stream's bytes go: the Node response or Hono's stream. */
export type LiveSink = {
  /** Queues `chunk` (UTF-8 text of whole events) for the client. */
  write(chunk: string): void;
  /** Ends the response. */
  end(): void;
  /** Bytes queued and not yet taken by the client. */
  buffered(): number;
  /** Drops the connection at once, with what is queued on it (a client too slow to follow); optional. */
  abort?(): void;
};

/** One `event:` block of an event stream (`id` optional; `data` on one line: JSON has no raw newline). */
export function sseEvent(event: string, data: unknown, id?: string): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n${id === undefined ? '' : `id: ${id}\n`}\n`;
}

/**
 * The data of one `state` event: the state part of a trace (from a trace read, or a change the hub announced), held to
 * its contract (lib/contracts/locations.ts `liveStateSchema`) with every time in the REST path's form, ISO 8601 UTC
 * (`toISOString`): the trigger's JSON writes PostgreSQL's own (`…+00:00`). Throws on a value outside the contract.
 */
export function liveStateOfChange(s: Omit<LiveState, 'moreTime'> & Partial<Pick<LiveState, 'moreTime'>>): LiveState {
  const iso = (t: string | null) => (t === null ? null : new Date(t).toISOString());
  return liveStateSchema.parse({
    status: s.status,
    ownerSeenAt: iso(s.ownerSeenAt),
    liveSignal: s.liveSignal,
    sharingUntil: iso(s.sharingUntil),
    moreTime: s.moreTime ?? null,
  });
}

/** What tells one named place from another (`''` for none), so a `place` event goes only when it changes. */
export function placeKeyOf(place: LocationTrace['place']): string {
  return place ? `${place.name}|${place.region}|${place.country}` : '';
}
