import 'server-only';
import { getDbState } from './db/client';
import { env } from './env';
import { startWorkers } from './jobs/boss';

/** Start-up of the web process: validates settings, opens the database, starts in-process workers. */
export async function startServer(): Promise<void> {
  try {
    const settings = env();
    await getDbState();
    if (settings.JOBS_IN_PROCESS) await startWorkers();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
