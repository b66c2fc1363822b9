// `npm run worker`: runs the pg-boss workers (outbox delivery and its sweep, the minute jobs) as their own process,
// for deployments with JOBS_IN_PROCESS=false (docs/rules.md#runtime). With METRICS_PORT set it serves its Prometheus
// metrics at http://0.0.0.0:METRICS_PORT/metrics (Bearer METRICS_TOKEN). Stops on SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { env } from '../env';
import { log } from '../observability/log';
import { metrics, metricsAuth } from '../observability/metrics';
import { onShutdown } from '../lifecycle';
import { siteList } from '../services/lookups';
import { getBoss, startWorkers } from './boss';

process.env.APP_ROLE ??= 'worker';
// A bad WhatsMyName site list stops the worker at once with the file and what is wrong.
siteList();
await startWorkers();
log().info('workers started');

const { METRICS_PORT, METRICS_TOKEN } = env();
/** The worker's metrics endpoint: `GET /metrics` with the bearer token (metricsAuth), a bare 401 without it. */
const metricsApp = METRICS_TOKEN
  ? new Hono().get(
      '/metrics',
      metricsAuth(METRICS_TOKEN, (c) => c.body(null, 401)),
      async (c) => {
        const { registry } = metrics();
        return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
      },
    )
  : null;
const server = METRICS_PORT && metricsApp ? serve({ fetch: metricsApp.fetch, port: METRICS_PORT }) : null;

onShutdown(async () => {
  server?.close();
  await (await getBoss()).stop({ graceful: true, wait: true, close: true });
});
