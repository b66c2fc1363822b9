import 'server-only';
import { liveStateSchema, type LiveState, type LocationTrace } from '../../../lib/contracts/locations';

// The text of the live streams' events (WHATWG HTML, "Server-sent events": `event:`, `data:`, `id:` fields), for one
// request's map and the people map alike (services/locate/live-streams.ts).

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
