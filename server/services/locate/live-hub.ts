import 'server-only';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { getDbState } from '../../db/client';
import { NotifyProbes } from '../../db/notify-probes';
import { env } from '../../env';
import { log } from '../../observability/log';
import { describeError } from '../../observability/describe-error';
import { LIVE_CHANNEL } from '../live-channel';
import { RedisFeed } from './live-redis';
import {
  DEAF_POLL_MS,
  PROBE_AGAIN_MS,
  PROBE_TIMEOUT_MS,
  channelNoticeOf,
  eventsOfBatch,
  type HubHearing,
  type LiveEvent,
} from './live-notices';

// Each process's hub of live location (docs/decisions/0019-live-broker.md; PostgreSQL docs, "LISTEN" and "NOTIFY"):
// one LISTEN connection, or the Redis feed of the requests this process holds, fanned out to the open streams of each
// request; a probe tells whether notifications are heard at all (a transaction pooler swallows them), and streams read
// on a timer while they are not. One hub per process (`liveHub`).

// The channel's name and the end-of-sessions notice are shared with accounts (services/live-channel.ts).
export { LIVE_CHANNEL };

type Listener = (event: LiveEvent) => void;

/**
 * One process's listener for live location: a single dedicated PostgreSQL connection LISTENs on `request_live`
 * (PostgreSQL docs, "NOTIFY": delivered at commit, in commit order, to every listening session), and fans each
 * notification out to the open streams of that request in this process. So an owner posting to one app process and
 * a buyer watching through another see each other. With the live broker's Redis engine (REDIS_URL) the positions'
 * notices and heartbeats come instead from the Redis Streams of the requests this process holds (`RedisFeed`,
 * services/locate/live-redis.ts), and the LISTEN carries the rest: state changes, ended sessions and the probe
 * (docs/decisions/0019-live-broker.md). While Redis does not answer, streams read on a timer, as when deaf.
 *
 * The connection opens with the first subscriber and is restarted with backoff (0.5 s doubling to 10 s) when it
 * fails; every subscriber then gets `resync`, to read again what it may have missed. Listeners are kept per request
 * id; `subscribe` returns the function that removes one (a closed tab frees its listener).
 */
class LiveHub {
  private listeners = new Map<string, Set<Listener>>();
  private sessionsEnded: ((tokenHashes: string[]) => void) | null = null;
  private probes = new NotifyProbes();
  private state: HubHearing = 'idle';
  private deafTimer: NodeJS.Timeout | null = null;
  private lastProbe = 0;

  /** The Redis engine's reader (services/locate/live-redis.ts), opened with the first subscriber; null on PostgreSQL's.
   * */
  private feed: RedisFeed | null = null;
  /** Redis does not answer the feed: streams read on a timer, as when deaf. */
  private feedDown = false;

  /**
   * `listenUrl`: the connection to LISTEN on; by default DATABASE_SESSION_URL, else the app's DATABASE_URL (tests give
   * one to listen through a pooler). `redisUrl`: the live broker's Redis engine to read positions' notices from; by
   * default REDIS_URL; null for PostgreSQL's engine (the positions' notices then come with the LISTEN).
   */
  constructor(
    private readonly listenUrl?: string,
    private readonly redisUrl?: string | null,
  ) {}
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryMs = 500;
  private closed = false;
  private reconnecting = false;

  /**
   * Calls `listener` for every event of request `id` until the returned function is called. Rejects (and keeps no
   * listener) when the listening connection cannot be opened.
   */
  async subscribe(id: string, listener: Listener): Promise<() => void> {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    const remove = () => {
      const current = this.listeners.get(id);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.listeners.delete(id);
        this.feed?.release(id);
      }
    };
    try {
      await this.connect();
      // Redis's engine: the request's stream is read from its current end before the caller reads its view.
      await this.feedOf()?.hold(id);
    } catch (error) {
      remove();
      throw error;
    }
    return remove;
  }

  /** Which engine of the live broker this hub hears positions from (REDIS_URL set: `redis`). */
  get engine(): 'postgres' | 'redis' {
    return this.redisUrlOf() ? 'redis' : 'postgres';
  }

  private redisUrlOf(): string | null {
    return this.redisUrl === undefined ? (env().REDIS_URL ?? null) : this.redisUrl;
  }

  /** The Redis engine's reader, opened with the first subscriber (null on PostgreSQL's engine, or closed). */
  private feedOf(): RedisFeed | null {
    const url = this.redisUrlOf();
    if (!url || this.closed) return null;
    this.feed ??= new RedisFeed(url, {
      notice: ({ requestId: r, positionId, seen }) => {
        if (positionId !== null) this.emit(r, { k: 'n', r, id: positionId });
        if (seen) this.emit(r, { k: 'seen', r });
      },
      down: (error) => {
        this.feedDown = true;
        log().error(
          { component: 'live-hub', err: describeError(error) },
          'redis (REDIS_URL) does not answer: live streams read every 2 s until it does',
        );
        this.pollOnTimer();
      },
      up: () => {
        this.feedDown = false;
        this.pollOnTimer();
        // What was announced during the outage may be lost with Redis: every stream reads what it missed.
        for (const r of this.listeners.keys()) this.emit(r, { k: 'poll', r });
      },
    });
    return this.feed;
  }

  /** Streams read on a timer (every DEAF_POLL_MS) while the hub is deaf or Redis does not answer, and only then. */
  private pollOnTimer(): void {
    if (this.state === 'deaf' || this.feedDown)
      this.deafTimer ??= setInterval(() => this.pollDeaf(), DEAF_POLL_MS).unref();
    else if (this.deafTimer) {
      clearInterval(this.deafTimer);
      this.deafTimer = null;
    }
  }

  /** Calls `handler` with the token hashes of every announced end of sessions (`announceSessionsEnded`). */
  onSessionsEnded(handler: (tokenHashes: string[]) => void): void {
    this.sessionsEnded = handler;
  }

  /** Open listeners in this process (for metrics and the leak test). */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** Whether the hub hears notifications (`HubHearing`; `deaf` too while Redis does not answer), for the health check. */
  get hearing(): HubHearing {
    if (this.feedDown) return 'deaf';
    return this.client || this.state === 'deaf' ? this.state : 'idle';
  }

  private async open(): Promise<void> {
    // LISTEN needs a session of its own: DATABASE_SESSION_URL when DATABASE_URL goes through a transaction pooler.
    const url = this.listenUrl ?? env().DATABASE_SESSION_URL ?? (await getDbState()).url;
    const client = new Client({ connectionString: url, application_name: 'live-hub' });
    client.on('notification', (msg) => {
      const event = msg.channel === LIVE_CHANNEL ? channelNoticeOf(msg.payload) : null;
      if (event?.k === 'x') this.sessionsEnded?.(Array.isArray(event.h) ? event.h : []);
      else if (event?.k === 'probe') this.probes.arrived(event.n);
      else if (event?.k === 'b') for (const e of eventsOfBatch(event)) this.emit(e.r, e);
      else if (event && 'r' in event && typeof event.r === 'string') this.emit(event.r, event);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    this.client = client;
    this.retryMs = 500;
    void this.probe();
  }

  /**
   * Sends a probe through the live path's pool, as a fix's notice travels, and waits PROBE_TIMEOUT_MS for it on the
   * LISTEN connection. Not heard: the hub is `deaf` (logged as an error naming the cure), and every stream reads what
   * it missed every DEAF_POLL_MS, so no position is lost silently; probed again every PROBE_AGAIN_MS until heard.
   */
  async probe(): Promise<HubHearing> {
    if (this.closed || !this.client) return this.hearing;
    const previous = this.state;
    if (previous !== 'deaf') this.state = 'checking';
    this.lastProbe = Date.now();
    let ok: boolean;
    try {
      const { live: db } = await getDbState();
      ok = await this.probes.run(
        (nonce) => db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify({ k: 'probe', n: nonce })})`),
        PROBE_TIMEOUT_MS,
      );
    } catch (error) {
      // Not sent (the pool failed): nothing learnt; the state stays and the next probe is due at once.
      this.lastProbe = 0;
      this.state = previous;
      log().warn({ component: 'live-hub', err: describeError(error) }, 'live probe not sent');
      return this.state;
    }
    if (ok) {
      if (this.state === 'deaf') log().info({ component: 'live-hub' }, 'live notifications heard again');
      this.state = 'hearing';
    } else {
      if (this.state !== 'deaf')
        log().error(
          { component: 'live-hub' },
          'live notifications do not arrive: DATABASE_URL goes through a transaction pooler or a standby? ' +
            'Set DATABASE_SESSION_URL to a direct connection (docs/deploy.md). Streams poll meanwhile.',
        );
      this.state = 'deaf';
    }
    this.pollOnTimer();
    return this.state;
  }

  /** While deaf or Redis is down: every subscribed request's streams read what came after their last position. */
  private pollDeaf(): void {
    if (this.state !== 'deaf' && !this.feedDown) return;
    for (const id of this.listeners.keys()) this.emit(id, { k: 'poll', r: id });
    if (this.state === 'deaf' && Date.now() - this.lastProbe >= PROBE_AGAIN_MS) void this.probe();
  }

  private emit(id: string, event: LiveEvent) {
    const set = this.listeners.get(id);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        log().warn({ component: 'live-hub', err: describeError(error) }, 'listener failed');
      }
    }
  }

  private lost(client: Client, error: unknown) {
    if (this.client !== client && this.client !== null) return;
    this.client = null;
    client.removeAllListeners();
    void client.end().catch(() => {});
    // One reconnection at a time: a failed connect reports both its rejection and its client's `end`.
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    log().warn({ component: 'live-hub', err: describeError(error) }, 'live listener lost; reconnecting');
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    setTimeout(() => {
      this.reconnecting = false;
      if (this.listeners.size === 0 || this.closed) return;
      this.connect()
        .then(() => {
          for (const id of this.listeners.keys()) this.emit(id, { k: 'resync', r: id });
        })
        .catch((e: unknown) => this.lost(client, e));
    }, wait).unref();
  }

  /** Closes the connection (tests, shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.deafTimer) clearInterval(this.deafTimer);
    this.deafTimer = null;
    const client = this.client;
    this.client = null;
    this.listeners.clear();
    const feed = this.feed;
    this.feed = null;
    await feed?.close();
    if (client) {
      client.removeAllListeners();
      await client.end().catch(() => {});
    }
  }
}

export { LiveHub };

const KEY = Symbol.for('app.liveHub');

/** This process's hub (one per process, shared by every route module instance). */
export function liveHub(): LiveHub {
  const g = globalThis as unknown as Record<symbol, LiveHub | undefined>;
  return (g[KEY] ??= new LiveHub());
}
