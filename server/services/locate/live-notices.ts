import type { MoreTimeAsk } from '../../../lib/contracts/locations';
import type { SessionsEnded } from '../live-channel';

// What each process's live hub hears and hands its streams (services/locate/live-hub.ts;
// docs/decisions/0019-live-broker.md): the notices on LIVE_CHANNEL, the events a stream's listener receives, the
// hub's hearing and its timings.

/** A change of a request's state or of what its owner's page said (ISO 8601 times). */
export type LiveChange = {
  k: 's';
  r: string;
  status: string;
  shared: boolean;
  ownerSeenAt: string | null;
  liveSignal: 'hidden' | 'permission_lost' | null;
  sharingUntil: string | null;
  /** The requester's ask for more time in this share (lib/contracts/locations.ts MORE_TIME_ASKS); absent from older triggers. */
  moreTime?: MoreTimeAsk | null;
};

/**
 * What a listener receives: `n` (the request has positions up to `id`: read them), `seen` (the owner's page was heard from: read the state), a change, `resync`
 * after the hub's connection was lost and restored (read the whole view again), or `poll` while the hub hears no
 * notification (read what came after the last position, and the state).
 */
export type LiveEvent =
  | LiveChange
  | { k: 'n'; r: string; id: number }
  | { k: 'seen'; r: string }
  | { k: 'resync'; r: string }
  | { k: 'poll'; r: string };

/**
 * A batch as the live broker's PostgreSQL engine announces it on LIVE_CHANNEL (services/locate/live-broker.ts), ids
 * only: `p`, `[request id, newest position id]` pairs of new positions; `s`, requests whose owner's page was heard from
 * (`owner_seen_at` written: a heartbeat).
 */
export type PositionsNotice = { k: 'b'; p: [string, number][]; s?: string[] };

/** The hub's own test notice, sent through the live path's pool after each LISTEN: it must come back (`hearing`). */
export type Probe = { k: 'probe'; n: string };

/**
 * What comes on LIVE_CHANNEL: a batch of positions and heartbeats, ended sessions, a probe, or an event of one request
 * (a state change, from the trigger) that reaches that request's streams as it is.
 */
export type ChannelNotice = LiveEvent | PositionsNotice | SessionsEnded | Probe;

/** A notification's payload as a notice, or null when it is not a JSON object (then it is ignored). */
export function channelNoticeOf(payload: string | undefined): ChannelNotice | null {
  try {
    const notice: unknown = JSON.parse(payload ?? '');
    return notice && typeof notice === 'object' ? (notice as ChannelNotice) : null;
  } catch {
    return null;
  }
}

/** The events of a batch (`PositionsNotice`) for the streams of its requests, its malformed entries left out. */
export function eventsOfBatch(batch: PositionsNotice): LiveEvent[] {
  const events: LiveEvent[] = [];
  for (const [r, id] of Array.isArray(batch.p) ? batch.p : [])
    if (typeof r === 'string' && Number.isSafeInteger(id)) events.push({ k: 'n', r, id });
  for (const r of Array.isArray(batch.s) ? batch.s : []) if (typeof r === 'string') events.push({ k: 'seen', r });
  return events;
}

/** How long a probe may take to come back before the hub counts itself deaf (ms). */
export const PROBE_TIMEOUT_MS = 3_000;
/** While deaf: every stream reads what it missed this often (ms). */
export const DEAF_POLL_MS = 2_000;
/** While deaf: the hub probes again this often (ms), and hears again as soon as a probe comes back. */
export const PROBE_AGAIN_MS = 30_000;

/**
 * Whether this process's hub hears the database's notifications: `idle` (no stream open, nothing to hear), `hearing`
 * (its probe came back), `deaf` (it did not: a transaction pooler between the hub and PostgreSQL, or a standby;
 * streams then read every DEAF_POLL_MS instead), `checking` (a probe is on its way).
 */
export type HubHearing = 'idle' | 'checking' | 'hearing' | 'deaf';
