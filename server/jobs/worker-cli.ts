// `npm run worker`: runs the pg-boss workers (outbox delivery and its sweep, the minute jobs) as their own process,
// for deployments with JOBS_IN_PROCESS=false (docs/rules.md#runtime). With METRICS_PORT set it serves its Prometheus
// metrics at http://0.0.0.0:METRICS_PORT/metrics (Bearer METRICS_TOKEN). Stops on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { env } from '../env';
import { log } from '../observability/log';
import { metrics, metricsAuthorized } from '../observability/metrics';
import { onShutdown } from '../lifecycle';
import { siteList } from '../services/username-sites';
import { getBoss, startWorkers } from './boss';

process.env.APP_ROLE ??= 'worker';
// A bad WhatsMyName site list stops the worker at once with the file and what is wrong.
siteList();
await startWorkers();
log().info('workers started');

const { METRICS_PORT, METRICS_TOKEN } = env();
const server =
  METRICS_PORT && METRICS_TOKEN
    ? createServer((req, res) => {
        if (req.url !== '/metrics') return void res.writeHead(404).end();
        if (!metricsAuthorized(req.headers.authorization, METRICS_TOKEN)) return void res.writeHead(401).end();
        const { registry } = metrics();
        void registry.metrics().then((body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body));
      }).listen(METRICS_PORT)
    : null;

onShutdown(async () => {
  server?.close();
  await (await getBoss()).stop({ graceful: true, wait: true, close: true });
});
