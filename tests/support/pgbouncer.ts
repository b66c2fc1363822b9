import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listening } from './ports';

/** Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

/** Whether a PgBouncer binary is on this machine. */
export const hasPgBouncer = existsSync(PGBOUNCER);

/**
 * Starts PgBouncer in transaction mode (pgbouncer.org, "Config": `pool_mode = transaction`, the mode a pooler such as
 * CloudNativePG's `Pooler` or a managed service runs) in front of the database of `databaseUrl`, on a free loopback
 * port, with the same user and password. As root it runs as `nobody` (PgBouncer refuses to run as root). Returns the
 * URL to reach the database through it, and `stop`.
 */
export async function startPgBouncer(databaseUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const target = new URL(databaseUrl);
  const dir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-'));
  chmodSync(dir, 0o777);
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const db = target.pathname.slice(1);
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" "${password}"\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `${db} = host=${target.hostname} port=${target.port} dbname=${db} user=${user} password=${password}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 200',
      'default_pool_size = 10',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  for (const file of ['userlist.txt', 'pgbouncer.ini']) chmodSync(path.join(dir, file), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = asRoot
    ? spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', PGBOUNCER, 'pgbouncer.ini'], {
        cwd: dir,
        stdio: 'ignore',
      })
    : spawn(PGBOUNCER, ['pgbouncer.ini'], { cwd: dir, stdio: 'ignore' });
  await listening(port, 'PgBouncer');
  const url = new URL(databaseUrl);
  url.port = String(port);
  return {
    url: url.toString(),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r).once('error', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
