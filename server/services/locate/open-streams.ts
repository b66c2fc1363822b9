import 'server-only';
import { getDb } from '../../db/client';
import { describeError } from '../../observability/describe-error';
import { log } from '../../observability/log';
import { metrics } from '../../observability/metrics';
import { liveSessionOwners } from '../accounts';
import { liveHub } from './live-hub';
import { markWatched } from './watchers';

// This process's registry of open live streams (services/locate/live-open.ts opens them): one timer for the
// keep-alives, the watched marks and the session checks of all, the end of a signed-out session's streams, and the
// drain of a shutdown.

/** A keep-alive comment this often, so proxies and in-app browsers keep an idle stream open (ms). */
export const KEEPALIVE_MS = 15_000;
/**
 * The open streams are split into this many slices, and the timer ticks every KEEPALIVE_MS / UPKEEP_SLICES (1 s) for
 * one slice's keep-alives: each stream still gets one every KEEPALIVE_MS, and a process holding 5,000 streams writes
 * 333 at a time instead of blocking its event loop for all 5,000 at once (the fixes' `PUT`s waited behind them:
 * bench/live-report.md).
 */
export const UPKEEP_SLICES = 15;
/** The sessions of the open streams are checked again this often; a stream of a signed-out session ends (ms). */
export const SESSION_CHECK_MS = 30_000;
/** While a process shuts down its streams end this many at a time (`OpenStreams.drain`)… */
export const DRAIN_BATCH = 250;
/** …with this pause between batches (ms), so the others are not all asked to take them back at once. */
export const DRAIN_PAUSE_MS = 100;

/** What the registry needs of an open stream (services/locate/live-streams.ts `LiveStream`). */
export type OpenStream = {
  /** The signed-in buyer. */
  readonly userId: string;
  /** The session tokens the stream was opened with; it ends when one is signed out or names another user. */
  readonly tokens: readonly string[];
  /** Their SHA-256, as a sign-out's announcement names them. */
  readonly tokenHashes: readonly string[];
  /** The requests it shows (one for a request's map, every person's for the people map). */
  requestIds(): string[];
  /** A keep-alive, or the end of a stream too old or whose client stopped reading, at `now` (ms since the epoch). */
  upkeep(now: number): void;
  /** Ends the stream. */
  close(): void;
  /** Ends the stream with a `retry:` hint, for a shutdown. */
  closeForRestart(): void;
};

/**
 * The open streams of this process and their upkeep, on one timer: every KEEPALIVE_MS a keep-alive comment to each
 * (or its end past STREAM_LIFETIME_MS or MAX_BUFFERED_BYTES) and one UPDATE that marks their requests as watched
 * (services/locate/watchers.ts: the owner's page sends every fix while a map is open), a slice of them at each tick
 * (UPKEEP_SLICES); and every SESSION_CHECK_MS one query for the sessions of all of them (`liveSessionOwners`): a
 * stream whose session ended, or now names another user, ends.
 */
class OpenStreams {
  private open = new Set<OpenStream>();
  /** The streams in UPKEEP_SLICES slices, filled in turn; tick `n` keeps slice `n % UPKEEP_SLICES` alive. */
  private slices = Array.from({ length: UPKEEP_SLICES }, () => new Set<OpenStream>());
  private added = 0;
  private ticks = 0;
  private timer: NodeJS.Timeout | null = null;
  private lastCheck = Date.now();
  private checking = false;

  get size(): number {
    return this.open.size;
  }

  add(stream: OpenStream): void {
    this.open.add(stream);
    this.slices[this.added++ % UPKEEP_SLICES].add(stream);
    metrics().liveStreamsOpen.set(this.open.size);
    this.timer ??= setInterval(
      () => void this.tick(Date.now(), this.ticks++ % UPKEEP_SLICES),
      KEEPALIVE_MS / UPKEEP_SLICES,
    ).unref();
    // A map opened: the owner's page learns it with its next answer and sends every fix again
    // (services/locate/watchers.ts).
    void this.markWatched(stream.requestIds());
  }

  delete(stream: OpenStream): void {
    this.open.delete(stream);
    for (const slice of this.slices) slice.delete(stream);
    metrics().liveStreamsOpen.set(this.open.size);
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Tells the owner's pages of `requestIds` that a map of theirs is open; a failure waits for the next mark. */
  private async markWatched(requestIds: string[]): Promise<void> {
    try {
      await markWatched(await getDb(), requestIds);
    } catch (error) {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'could not mark the watched requests');
    }
  }

  /**
   * One tick of upkeep at `now` (ms since the epoch): the keep-alives of slice `slice` (of every stream when none is
   * given: tests call `streams().tick()` for a whole round) and the watched marks of their requests, and the session
   * check when due.
   */
  async tick(now = Date.now(), slice?: number): Promise<void> {
    const round = [...(slice === undefined ? this.open : this.slices[slice])];
    for (const stream of round) stream.upkeep(now);
    void this.markWatched([...new Set(round.flatMap((s) => s.requestIds()))]);
    if (now - this.lastCheck < SESSION_CHECK_MS - 1000 || this.checking) return;
    this.lastCheck = now;
    this.checking = true;
    try {
      const checked = [...this.open];
      const owners = await liveSessionOwners(await getDb(), [...new Set(checked.flatMap((s) => s.tokens))]);
      for (const stream of checked) {
        if (!stream.tokens.every((t) => owners.get(t) === stream.userId)) stream.close();
      }
    } catch (error) {
      log().warn({ component: 'live-streams', err: describeError(error) }, 'session check failed; kept the streams');
    } finally {
      this.checking = false;
    }
  }

  /**
   * Ends at once the streams opened with any of the session tokens whose SHA-256 is in `tokenHashes` (a sign-out or
   * a revocation, announced by the hub to every process: services/sessions.ts `revokeSessions`). Returns how many ended.
   */
  closeSessions(tokenHashes: readonly string[]): number {
    const ended = new Set(tokenHashes);
    let n = 0;
    for (const stream of [...this.open]) {
      if (stream.tokenHashes.some((h) => ended.has(h))) {
        stream.close();
        n++;
      }
    }
    return n;
  }

  /**
   * Ends every stream for a shutdown, `batch` at a time with `pauseMs` between batches, each told to reconnect in a
   * moment (`closeForRestart`); streams opened meanwhile end too (they end after their view: `start`), and all that
   * are left at `deadlineMs` (20 s) at once. Resolves with how many ended in batches.
   */
  async drain(batch = DRAIN_BATCH, pauseMs = DRAIN_PAUSE_MS, deadlineMs = 20_000): Promise<number> {
    let ended = 0;
    const deadline = Date.now() + deadlineMs;
    while (this.open.size > 0) {
      if (Date.now() > deadline) {
        for (const stream of [...this.open]) stream.closeForRestart();
        break;
      }
      for (const stream of [...this.open].slice(0, batch)) {
        stream.closeForRestart();
        ended++;
      }
      if (this.open.size > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return ended;
  }

  /** Ends every stream (tests). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
  }
}

const KEY = Symbol.for('app.liveStreams');

/** This process's open streams (one registry per process, shared by every module instance, as the hub). */
export function streams(): OpenStreams {
  const g = globalThis as unknown as Record<symbol, OpenStreams | undefined>;
  return (g[KEY] ??= ((open) => {
    liveHub().onSessionsEnded((hashes) => open.closeSessions(hashes));
    return open;
  })(new OpenStreams()));
}
