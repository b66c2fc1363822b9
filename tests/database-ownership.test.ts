import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionError, retryOnConnectionLoss, getDbState, migrateOnce, type Db } from '@/server/db/client';
import { startEmbeddedPostgres } from '@/server/db/embedded';

// Issue 16 §2: the app never uses a database it does not own, and instances starting at once migrate once.

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

describe('a connection the server ends (issue 16 §6)', () => {
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
    const result = await retryOnConnectionLoss(async () => {
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
    }, [50, 50]);
    expect(result).toBe(1);
    expect(calls).toBe(2);

    let wrong = 0;
    await expect(
      retryOnConnectionLoss(async () => {
        wrong += 1;
        await pool.query('select * from no_such_table');
      }, [50, 50]),
    ).rejects.toThrow(/no_such_table/);
    expect(wrong).toBe(1);
    expect(isConnectionError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isConnectionError(new Error('x', { cause: Object.assign(new Error('y'), { code: 'ECONNREFUSED' }) }))).toBe(
      true,
    );
    expect(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
