import 'server-only';
import { getDbState } from './db/client';
import { env } from './env';
import { isDemoMode } from '../lib/site';
import { getBoss, startWorkers } from './jobs/boss';
import { siteList } from './services/lookups';
import { onShutdown, startupSummary } from './lifecycle';
import { LIVE_STREAM_SERVER, serveLiveStream } from './api/live-node';
import { liveBroker, streams } from './services/locate';

/**
 * Start-up of the web process: validates settings, opens the database, starts in-process workers, and on SIGINT or
 * SIGTERM shuts down in order (readiness fails, a grace period on SIGTERM, the live streams in batches, workers, pool,
 * embedded PostgreSQL). A failure at start-up exits with its reason.
 */
export async function startServer(): Promise<void> {
  try {
    const settings = env();
    // Pages are static: the build's mode must be the mode these settings run in.
    const built = process.env.NEXT_PUBLIC_DEMO_MODE;
    if (built !== undefined && (built === '1') !== isDemoMode(settings)) {
      throw new Error(
        `This build was made in ${built === '1' ? 'demo' : 'live'} mode, but the settings are for ` +
          `${isDemoMode(settings) ? 'demo' : 'live'} mode. Run npm run build with the same PAYMENT_PROVIDER and SMS_PROVIDER.`,
      );
    }
    // A bad WhatsMyName site list stops start-up here, with the file and what is wrong.
    const sites = siteList().sites.length;
    const { url } = await getDbState();
    console.log(`${startupSummary(settings, url)}\nusernames  ${sites} sites (${settings.USERNAME_SITES_FILE})`);
    if (settings.JOBS_IN_PROCESS) await startWorkers();
    // scripts/start.mjs answers the buyer's live streams itself with this (docs/decisions/0014-live-streams-on-the-node-server.md).
    (globalThis as Record<symbol, unknown>)[LIVE_STREAM_SERVER] = serveLiveStream;
    // On SIGTERM: readiness fails at once, requests are served for SHUTDOWN_GRACE_MS, then the live streams end in
    // batches, each told to come back in a moment, so they resume on the other instances from Last-Event-ID.
    onShutdown(async () => {
      await liveBroker().flush();
      await streams().drain();
      if (settings.JOBS_IN_PROCESS) await (await getBoss()).stop({ graceful: false, wait: true, close: true });
    }, settings.SHUTDOWN_GRACE_MS);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
