import 'server-only';
import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

// Who owns an embedded data directory (server/db/embedded.ts): the record `<dir>.owner.json` beside it, claimed by
// exclusive creation, and whether a process named in it still runs (docs/rules.md#runtime).

/** The record of the process that owns an embedded data directory: `<dir>.owner.json` beside it. */
type OwnerRecord = { pid: number; port: string; startedAt: string; command: string };

/**
 * Makes this process the owner of `dir` (exclusive creation of `<dir>.owner.json`, holding its pid, `PORT`, start
 * time and command) and returns the release, which removes the record if it is still this process's (also run on
 * `exit`). A record left by a process that no longer runs, or one that cannot be read, is replaced. Throws when a
 * live process owns `dir` (a message naming it and the two ways out, for `pgPort`), or when no record could be
 * written after three tries.
 */
export function claimOwnership(dir: string, pgPort: number): () => void {
  const file = `${dir}.owner.json`;
  mkdirSync(path.dirname(file), { recursive: true });
  const record: OwnerRecord = {
    pid: process.pid,
    port: process.env.PORT ?? '3000',
    startedAt: new Date().toISOString(),
    command: process.argv.slice(1).join(' '),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(file);
      if (owner && isAlive(owner.pid)) throw new Error(inUseMessage(dir, pgPort, owner));
      // The owner is gone (or the record is unreadable): its claim lapses.
      try {
        unlinkSync(file);
      } catch {
        // Another process removed it first; try again.
      }
      continue;
    }
    writeSync(fd, JSON.stringify(record));
    closeSync(fd);
    const release = () => {
      process.off('exit', release);
      if (readOwner(file)?.pid === process.pid) {
        try {
          unlinkSync(file);
        } catch {
          // Already gone.
        }
      }
    };
    process.on('exit', release);
    return release;
  }
  throw new Error(`Could not record this process as the owner of the embedded PostgreSQL in ${dir} (${file}).`);
}

/** The start-up refusal when another live process owns the directory: who, and the two ways out. */
function inUseMessage(dir: string, pgPort: number, owner: OwnerRecord): string {
  const inside = path.relative(process.cwd(), dir);
  const shown = inside && !inside.startsWith('..') ? inside : dir;
  return [
    `The embedded PostgreSQL in ${shown} belongs to another running instance: pid ${owner.pid}` +
      ` (${owner.command || 'node'}, PORT ${owner.port}, started ${owner.startedAt}).`,
    'Not starting: that database stops when its owner does. Either',
    `  - share it on purpose: DATABASE_URL=postgres://postgres:postgres@127.0.0.1:${pgPort}/app, or`,
    `  - use a database of this instance's own: EMBEDDED_PG_DIR=.data/pg-2 EMBEDDED_PG_PORT=${pgPort + 1}`,
  ].join('\n');
}

function readOwner(file: string): OwnerRecord | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as OwnerRecord;
    return Number.isInteger(parsed.pid) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process with this pid runs: signal 0 checks without sending anything, and EPERM means it exists under
 * another user (kill(2), POSIX).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
