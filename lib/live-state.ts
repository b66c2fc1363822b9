import type { BuyerState } from './request-machine';

/**
 * How live a share is, as the buyer's map and list say it. A browser gives positions only while the owner's page is
 * open and the phone unlocked (W3C Geolocation API; Page Visibility), so the owner's page says when it is hidden,
 * when the permission is revoked, and sends a heartbeat while visible; this turns that and the request's state into
 * one word the buyer can trust:
 * - `live`: sharing, and the owner's page spoke within LIVE_OFFLINE_AFTER_MS;
 * - `paused`: the owner's page is hidden (phone locked, another app, page closed);
 * - `permission_lost`: the browser's location permission was revoked while sharing;
 * - `offline`: sharing, but nothing heard for LIVE_OFFLINE_AFTER_MS (network cut, browser killed);
 * - `stopped_by_owner`, `time_ran_out`, `declined`, `expired`, `withdrawn`: ended;
 * - `waiting`: the owner has not shared yet.
 */
export type Liveness =
  | 'waiting'
  | 'live'
  | 'paused'
  | 'permission_lost'
  | 'offline'
  | 'stopped_by_owner'
  | 'time_ran_out'
  | 'declined'
  | 'expired'
  | 'withdrawn';

/** Silence after which a running share reads `offline`: three missed heartbeats (ms). */
export const LIVE_OFFLINE_AFTER_MS = 60_000;

/** How often the owner's page says it is still open while visible (ms). */
export const LIVE_HEARTBEAT_MS = 20_000;

/**
 * How often the owner's page takes and sends a fix while no buyer's map is open (ms): it rests the GPS in between
 * and keeps its heartbeat (docs/decisions/0023-fixes-driven-by-viewers.md).
 */
export const REST_FIX_MS = 5 * 60_000;

/**
 * How long no map may be open before the owner's page rests (ms): a buyer who opens the map on the "shared" alert, or
 * reloads it, finds the page still sending every move.
 */
export const REST_GRACE_MS = 60_000;

/** What `liveness` reads: the buyer's view of a request (`LocationTrace` and its live fields). */
export type LiveInput = {
  status: BuyerState;
  /** ISO 8601; when the owner's page last spoke (heartbeat or fix). */
  ownerSeenAt: string | null;
  liveSignal: 'hidden' | 'permission_lost' | null;
  /** For a stopped request: stopped by the owner, or the chosen duration ran out. */
  ended: 'owner' | 'time' | null;
  withdrawn: boolean;
  /** ISO 8601; the end of the sharing window. */
  sharingUntil: string | null;
};

/** The buyer's word for a request at `now` (ms since the epoch); see `Liveness`. */
export function liveness(input: LiveInput, now: number): Liveness {
  switch (input.status) {
    case 'sharing':
    case 'paused': {
      if (input.sharingUntil && Date.parse(input.sharingUntil) <= now) return 'time_ran_out';
      if (input.status === 'paused') return input.liveSignal === 'permission_lost' ? 'permission_lost' : 'paused';
      const seen = input.ownerSeenAt ? Date.parse(input.ownerSeenAt) : 0;
      return now - seen > LIVE_OFFLINE_AFTER_MS ? 'offline' : 'live';
    }
    case 'stopped':
      return input.ended === 'time' ? 'time_ran_out' : 'stopped_by_owner';
    case 'declined':
      return 'declined';
    case 'expired':
      return input.withdrawn ? 'withdrawn' : 'expired';
    default:
      return 'waiting';
  }
}
