import { ApiClientError } from '@/lib/api/client';
import type { ConsentView } from '@/lib/contracts/consent';

// The consent page's states and the rules that read them (components/share/use-consent.ts runs them).

/** What the browser's location is doing: asked, giving fixes, refused, or silent (page hidden, phone locked). */
export type GpsState = 'idle' | 'waiting' | 'ok' | 'denied' | 'lost';

/**
 * The owner's page state, taken from the server's status and end time:
 * `loading`, `reconnecting` (no answer from the server yet: retried), `invalid` (unknown code), `asked` (not answered),
 * `sharing`, `paused` (sharing, but the browser stopped giving positions: page hidden or phone locked), `stopped`
 * (by the owner), `ended` (the chosen duration ran out), `declined`, `expired`, `withdrawn` (the buyer's subscription
 * ended) and `reported`.
 */
export type OwnerState =
  | 'loading'
  | 'reconnecting'
  | 'invalid'
  | 'asked'
  | 'sharing'
  | 'paused'
  | 'stopped'
  | 'ended'
  | 'declined'
  | 'expired'
  | 'withdrawn'
  | 'reported';

/** Geolocation options: a fresh, high-accuracy fix; the prompt and the first fix may take a while (ms). */
export const GPS_OPTIONS: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 60_000 };
/** Waits between attempts to reach the server after a network error (ms), then every 30 s. */
export const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/** True for a failure worth retrying: no answer, a 5xx or a rate limit; not a refusal the server meant. */
export function transient(error: unknown): boolean {
  return !(error instanceof ApiClientError) || error.status === 0 || error.status >= 500 || error.status === 429;
}

/** The page state from the server's view and what the browser's location does. */
export function stateOf(view: ConsentView, now: number, gps: GpsState): OwnerState {
  if (view.reported || view.status === 'reported') return 'reported';
  switch (view.status) {
    case 'withdrawn':
      return 'withdrawn';
    case 'expired':
      return view.withdrawn ? 'withdrawn' : 'expired';
    case 'declined':
      return 'declined';
    case 'stopped':
      return view.ended === 'time' ? 'ended' : 'stopped';
    case 'sharing':
    case 'paused':
      if (view.sharingUntil && Date.parse(view.sharingUntil) <= now) return 'ended';
      return gps === 'lost' || gps === 'denied' ? 'paused' : 'sharing';
    default:
      return 'asked';
  }
}
