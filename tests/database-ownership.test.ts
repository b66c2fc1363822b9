import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionError, retryOnConnectionLoss, getDbState, migrateOnce, type Db } from '@/server/db/client';
import { startEmbeddedPostgres } from '@/server/db/embedded';

// The app never uses a database it does not own, and instances starting at once migrate once (docs/running.md, "Locally").

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A temp directory the embedded server (run as the `postgres` user when we are root) can enter. */
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-owner-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** Another process owning an embedded PostgreSQL in `dir`, as a first `npm start` does; resolves once it runs. */
async function ownerProcess(dir: string, port: number): Promise<ChildProcess> {
  const args = ['--import', 'tsx', '--conditions=react-server', 'tests/support/embedded-owner.ts', dir, String(port)];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: '3999' },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`owner exited with ${code}`)));
  });
  return child;
}

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<{ ok: number }>('select 1 as ok')).rows[0].ok;
  } finally {
    await client.end();
  }
}

/** The pid of the postmaster running from `dir` (first line of its postmaster.pid). */
function postmasterPid(dir: string): number {
  return Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('a second instance in the same folder', () => {
  it('is refused while the first runs, with the owner named and the two ways out; starts once the first stopped', async () => {
    const dir = tempDataDir();
    const data = path.join(dir, 'pg');
    const port = await freePort();
    const first = await ownerProcess(data, port);
    try {
      const refused = startEmbeddedPostgres(data, port);
      await expect(refused).rejects.toThrow(
        new RegExp(
          `belongs to another running instance: pid ${first.pid}[\\s\\S]*PORT 3999[\\s\\S]*DATABASE_URL=postgres://postgres:postgres@127.0.0.1:${port}/app[\\s\\S]*EMBEDDED_PG_DIR=`,
        ),
      );
      // The first instance's database is untouched by the refusal.
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGTERM');
      await exited;
      expect(await listening(port)).toBe(false);
      const second = await startEmbeddedPostgres(data, port);
      expect(await selectOne(second.url)).toBe(1);
      await second.stop();
      expect(existsSync(`${data}.owner.json`)).toBe(false);
    } finally {
      first.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('takes over a database whose owner was killed, and stops it on its own shutdown', async () => {
    const dir = tempDataDir();
    const data = path.join(dir, 'pg');
    const port = await freePort();
    const first = await ownerProcess(data, port);
    try {
      // Killed without its shutdown: its postgres keeps running, orphaned.
      const exited = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await exited;
      const orphan = postmasterPid(data);
      const second = await startEmbeddedPostgres(data, port);
      expect(postmasterPid(data)).toBe(orphan);
      expect(await selectOne(second.url)).toBe(1);
      await second.stop();
      expect(await listening(port)).toBe(false);
    } finally {
      first.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a database that dies under its instance', () => {
  it('is started again, and the instance answers again', async () => {
    const dir = tempDataDir();
    const data = path.join(dir, 'pg');
    const port = await freePort();
    const db = await startEmbeddedPostgres(data, port, { restartDelaysMs: [300, 600, 1200, 2400, 4800] });
    try {
      const before = postmasterPid(data);
      process.kill(before, 'SIGKILL');
      expect(await waitFor(async () => (await selectOne(db.url)) === 1 && postmasterPid(data) !== before, 30_000)).toBe(
        true,
      );
    } finally {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('that cannot be started again ends the instance through onFatal, with the reason', async () => {
    const dir = tempDataDir();
    const data = path.join(dir, 'pg');
    const port = await freePort();
    let fatal: string | undefined;
    const db = await startEmbeddedPostgres(data, port, {
      restartDelaysMs: [200, 200],
      onFatal: (message) => {
        fatal = message;
      },
    });
    try {
      const pid = postmasterPid(data);
      // The data directory goes away with the server: nothing can be started again.
      process.kill(pid, 'SIGKILL');
      renameSync(data, `${data}-gone`);
      expect(await waitFor(() => fatal !== undefined, 30_000)).toBe(true);
      expect(fatal).toMatch(/stopped and could not be started again[\s\S]*DATABASE_URL/);
    } finally {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('embedded PostgreSQL ownership', () => {
  it('refuses a port held by another server, naming the settings', async () => {
    const other = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    const port = (other.address() as net.AddressInfo).port;
    const dir = mkdtempSync(path.join(tmpdir(), 'pg-owner-'));
    try {
      await expect(startEmbeddedPostgres(path.join(dir, 'pg'), port)).rejects.toThrow(
        /Port \d+ is taken[\s\S]*EMBEDDED_PG_PORT[\s\S]*DATABASE_URL/,
      );
      // Nothing was initialised in our directory.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migrations', () => {
  it('three instances starting at once apply each migration once', async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `mig_${Date.now()}`;
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const pools = Array.from({ length: 3 }, () => new pg.Pool({ connectionString: url.toString(), max: 3 }));
    // Dropping the database at the end ends their connections (57P01); that is expected here.
    for (const pool of pools) pool.on('error', () => undefined);
    try {
      await Promise.all(pools.map((pool) => migrateOnce(drizzle(pool) as unknown as Db, pool)));
      const { rows } = await pools[0].query('select hash from drizzle.__drizzle_migrations');
      const files = readdirSync(path.join(process.cwd(), 'drizzle')).filter((f) => f.endsWith('.sql'));
      expect(rows).toHaveLength(files.length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(files.length);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});

describe('a connection the server ends', () => {
  it('does not end the process: the checked-out client reports it and the pool carries on', async () => {
    const { pool, db } = await getDbState();
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    // As a restart or failover would, end that backend while the client is checked out and idle.
    await pool.query('select pg_terminate_backend($1)', [rows[0].pid]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.release(true);
    const [{ ok }] = (await db.execute<{ ok: number }>(sql`select 1 as ok`)).rows;
    expect(ok).toBe(1);
  });

  it('a statement that meets a lost connection is tried again once the server is back; a wrong one is not', async () => {
    const { pool } = await getDbState();
    let calls = 0;
    const result = await retryOnConnectionLoss(
      async () => {
        calls += 1;
        if (calls === 1) {
          // The first try runs on a backend that is terminated under it, as a restart does.
          const client = await pool.connect();
          try {
            const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
            await pool.query('select pg_terminate_backend($1)', [rows[0].pid]);
            await client.query('select 1');
          } finally {
            client.release(true);
          }
        }
        return (await pool.query<{ ok: number }>('select 1 as ok')).rows[0].ok;
      },
      { retries: 2, minTimeout: 50, factor: 1 },
    );
    expect(result).toBe(1);
    expect(calls).toBe(2);

    let wrong = 0;
    await expect(
      retryOnConnectionLoss(
        async () => {
          wrong += 1;
          await pool.query('select * from no_such_table');
        },
        { retries: 2, minTimeout: 50, factor: 1 },
      ),
    ).rejects.toThrow(/no_such_table/);
    expect(wrong).toBe(1);
    expect(isConnectionError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isConnectionError(new Error('x', { cause: Object.assign(new Error('y'), { code: 'ECONNREFUSED' }) }))).toBe(
      true,
    );
    expect(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
