import 'server-only';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import type { Db } from '../db/client';
import { isShutdownError } from '../db/client';
import { NotifyProbes } from '../db/notify-probes';
import { log } from '../observability/log';
import { describeError } from '../observability/describe-error';

/** The channel on which every new `outbound_messages` row is announced, `<channel> <id>` as payload (drizzle/0031). */
export const OUTBOX_CHANNEL = 'outbox';

/** How long the listener gathers announced ids before handing them over in one call (ms). */
const GATHER_MS = 5;
/** How long a probe may take to come back before the listener counts itself deaf (ms). */
const PROBE_TIMEOUT_MS = 3_000;
/** While deaf, how often the listener reads the messages waiting for their first attempt (ms). */
export const OUTBOX_DEAF_POLL_MS = 1_000;
/** While deaf, how often it probes again (ms). */
const PROBE_AGAIN_MS = 30_000;
/** Reconnection waits: from 0.5 s, doubling, to at most 10 s. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** An announced message: its id and its channel (`sms`, `email`, `push`). */
export type Announced = { id: string; channel: string };

/** What the listener needs: where to LISTEN, the pool to probe through, and what to do with what it hears. */
export type OutboxListenerOptions = {
  /** A session connection (DATABASE_SESSION_URL, or DATABASE_URL when that is direct): LISTEN needs a session. */
  url: string;
  /** The app's pool, through which messages are written (the probe travels the same way). */
  db: Db;
  /** Hands announced messages to delivery; a rejection is logged (the minute sweep is the safety net). */
  deliver: (messages: Announced[]) => Promise<void>;
  /**
   * The ids of messages that wait for their first attempt, read after a reconnection and, while deaf, every
   * OUTBOX_DEAF_POLL_MS: what was written while nobody listened.
   */
  waiting: () => Promise<Announced[]>;
};

/**
 * Hears the outbox's announcements (docs/decisions/0005-outbox-with-pg-boss.md): each `outbound_messages` row is
 * announced on OUTBOX_CHANNEL when the transaction that wrote it commits (a trigger, drizzle/0031; PostgreSQL docs,
 * "NOTIFY": delivered at commit, never for a rolled-back transaction), and this listener hands the ids to delivery
 * within GATHER_MS. So no route or service passes outbox ids around, and a message is picked up as soon as it exists.
 *
 * After each LISTEN a probe is sent through the app's pool; when it does not come back within 3 s (DATABASE_URL goes
 * through a transaction pooler and no DATABASE_SESSION_URL is set: PgBouncer never delivers LISTEN), the listener is
 * `deaf`: it logs the cure and reads the waiting messages every OUTBOX_DEAF_POLL_MS instead, slower, never silent.
 * A lost connection is reopened with backoff (0.5 s doubling to 10 s), then the waiting messages are read once.
 */
export class OutboxListener {
  private client: Client | null = null;
  private gathered = new Map<string, string>();
  private gatherTimer: NodeJS.Timeout | null = null;
  private deafTimer: NodeJS.Timeout | null = null;
  private probes = new NotifyProbes();
  private retryMs = FIRST_RETRY_MS;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private lastProbe = 0;
  private closed = false;
  private state: 'hearing' | 'deaf' | 'closed' | 'connecting' = 'connecting';

  constructor(private readonly options: OutboxListenerOptions) {}

  /** Whether announcements arrive (`hearing`), are polled for (`deaf`), or the listener is (re)connecting. */
  get hearing(): 'hearing' | 'deaf' | 'closed' | 'connecting' {
    return this.state;
  }

  /** Opens the LISTEN; never rejects: a failure is logged and tried again with backoff. */
  async start(): Promise<void> {
    await this.open();
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.options.url, application_name: 'outbox-listener' });
    client.on('notification', (msg) => {
      if (msg.channel !== OUTBOX_CHANNEL || !msg.payload) return;
      if (msg.payload.startsWith('probe:')) this.probes.arrived(msg.payload.slice(6));
      else {
        const [channel, id] = msg.payload.split(' ');
        if (channel && id) this.gather({ id, channel });
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      client.removeAllListeners();
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    // What was written while nobody listened (a restart, a lost connection).
    await this.catchUp();
    await this.probe();
  }

  private gather(message: Announced) {
    this.gathered.set(message.id, message.channel);
    this.gatherTimer ??= setTimeout(() => {
      this.gatherTimer = null;
      const messages = [...this.gathered].map(([id, channel]) => ({ id, channel }));
      this.gathered.clear();
      this.hand(messages);
    }, GATHER_MS);
  }

  private hand(messages: Announced[]) {
    if (!messages.length || this.closed) return;
    this.options.deliver(messages).catch((error: unknown) => {
      if (!isShutdownError(error))
        log().error({ component: 'outbox', err: describeError(error) }, 'announced messages not enqueued');
    });
  }

  private async catchUp(): Promise<void> {
    try {
      this.hand(await this.options.waiting());
    } catch (error) {
      if (!isShutdownError(error))
        log().warn({ component: 'outbox', err: describeError(error) }, 'waiting messages not read');
    }
  }

  /**
   * Sends a probe through the app's pool and waits PROBE_TIMEOUT_MS for it on the LISTEN connection; sets and
   * returns the state (`hearing` or `deaf`). Exposed for tests.
   */
  async probe(): Promise<'hearing' | 'deaf' | 'closed' | 'connecting'> {
    if (this.closed || !this.client) return this.state;
    this.lastProbe = Date.now();
    let ok: boolean;
    try {
      ok = await this.probes.run(
        (nonce) => this.options.db.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, ${`probe:${nonce}`})`),
        PROBE_TIMEOUT_MS,
      );
    } catch (error) {
      if (!isShutdownError(error)) log().warn({ component: 'outbox', err: describeError(error) }, 'probe not sent');
      return this.state;
    }
    if (this.closed) return this.state;
    if (ok) {
      if (this.state === 'deaf') log().info({ component: 'outbox' }, 'outbox announcements heard again');
      this.state = 'hearing';
      if (this.deafTimer) clearInterval(this.deafTimer);
      this.deafTimer = null;
    } else {
      if (this.state !== 'deaf')
        log().error(
          { component: 'outbox' },
          'outbox announcements do not arrive: DATABASE_URL goes through a transaction pooler? Set ' +
            'DATABASE_SESSION_URL to a direct connection (docs/deploy.md). Messages are polled every second meanwhile.',
        );
      this.state = 'deaf';
      this.deafTimer ??= setInterval(() => void this.pollDeaf(), OUTBOX_DEAF_POLL_MS).unref();
    }
    return this.state;
  }

  private async pollDeaf(): Promise<void> {
    if (this.state !== 'deaf' || this.closed) return;
    await this.catchUp();
    if (Date.now() - this.lastProbe >= PROBE_AGAIN_MS) void this.probe();
  }

  private lost(client: Client, error: unknown) {
    if (this.client !== null && this.client !== client) return;
    const wasOpen = this.client === client;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => {});
    void client.end().catch(() => {});
    // One reconnection at a time: a failed connect reports both its rejection and its client's `error`.
    if (this.closed || this.reconnectTimer) return;
    if (wasOpen || this.state !== 'connecting')
      log().warn({ component: 'outbox', err: describeError(error) }, 'outbox listener lost; reconnecting');
    this.state = 'connecting';
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.open();
    }, wait).unref();
  }

  /** Stops listening (shutdown, tests); what was gathered but not handed over is left to the sweep. */
  async close(): Promise<void> {
    this.closed = true;
    this.state = 'closed';
    if (this.deafTimer) clearInterval(this.deafTimer);
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.deafTimer = this.gatherTimer = this.reconnectTimer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
