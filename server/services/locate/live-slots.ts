import 'server-only';
import { env } from '../../env';
import { clientKey } from '../client-ip';
import { RateLimitedError } from '../rate-limit';

// The ceilings on a process's open live streams (docs/decisions/0017-live-stream-ceilings.md): the caps and the slots
// each open stream takes, whatever it shows (one request's map or the people map: services/locate/live-streams.ts).

/**
 * How many streams one process holds open at once for one session token, one account and one client address (its
 * `clientKey`: an IPv6 client's /64): the settings LIVE_STREAMS_PER_SESSION (4), LIVE_STREAMS_PER_ACCOUNT (8) and
 * LIVE_STREAMS_PER_ADDRESS (24). A map needs one stream, two while a tab reloads; a buyer with a few tabs or devices
 * stays well within. Past a cap the open is refused with 429 `Api.tooManyStreams` and Retry-After STREAM_RETRY_S,
 * before anything is subscribed or read (docs/decisions/0017-live-stream-ceilings.md). The address cap is higher for
 * carrier-grade NAT, where many phones share one address.
 */
export function streamCaps(): { session: number; account: number; address: number } {
  const e = env();
  return {
    session: e.LIVE_STREAMS_PER_SESSION,
    account: e.LIVE_STREAMS_PER_ACCOUNT,
    address: e.LIVE_STREAMS_PER_ADDRESS,
  };
}
/** The Retry-After of a refused open (s): an EventSource retries by itself; a closed tab frees its slot at once. */
export const STREAM_RETRY_S = 30;

/**
 * The slots of the open (and opening) streams of this process, counted per session token, account and client address
 * (`streamCaps`). Taking a slot checks and counts in one synchronous step, so concurrent opens in one process cannot
 * pass a cap together; each process counts its own, as each holds its own sockets and listeners.
 */
export class StreamSlots {
  private counts = new Map<string, number>();

  /** The keys one opening counts under (no address key when the address is unknown: it would pool every such client). */
  static keysOf(opening: { userId: string; clientIp: string | null }, tokenHashes: readonly string[]): string[] {
    return [
      ...tokenHashes.map((h) => `s:${h}`),
      `u:${opening.userId}`,
      ...(opening.clientIp ? [`a:${clientKey(opening.clientIp)}`] : []),
    ];
  }

  /** Takes one slot under each key, or throws RateLimitedError (429) naming none of them when a cap is reached. */
  take(keys: readonly string[]): void {
    const caps = streamCaps();
    for (const key of keys) {
      const cap = key[0] === 's' ? caps.session : key[0] === 'u' ? caps.account : caps.address;
      if ((this.counts.get(key) ?? 0) >= cap) throw new RateLimitedError(STREAM_RETRY_S, 'Api.tooManyStreams');
    }
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Gives back the slots `take` took. */
  give(keys: readonly string[]): void {
    for (const key of keys) {
      const left = (this.counts.get(key) ?? 0) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    }
  }

  /** Slots taken under `key` (tests). */
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

const SLOTS_KEY = Symbol.for('app.liveStreamSlots');

/** This process's stream slots (one per process, shared by every module instance, as the hub). */
export function streamSlots(): StreamSlots {
  const g = globalThis as unknown as Record<symbol, StreamSlots | undefined>;
  return (g[SLOTS_KEY] ??= new StreamSlots());
}
