import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, listening } from './ports';

/** Debian's Redis server (`apt-get install redis-server`; .ci/run installs it). */
export const REDIS_SERVER = '/usr/bin/redis-server';

/** Whether a Redis server binary is on this machine. */
export const hasRedis = existsSync(REDIS_SERVER);

/** A Redis server a test started: its URL, and ways to stop it, kill it and start it again on the same port. */
export type TestRedis = {
  /** `redis://127.0.0.1:<port>/0`. */
  url: string;
  /** Kills the server at once (SIGKILL: no goodbye to its clients, as a crash or a lost node), and waits for its exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence), and waits until it listens. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
};

/**
 * Starts `redis-server` on a free loopback port with no persistence (Redis docs, "Redis persistence": `save ""` and
 * `appendonly no`), in a directory of its own, so a restart comes back empty, as a cache-only Redis or Valkey does.
 */
export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    await listening(port, 'redis-server');
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    kill,
    restart: start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
