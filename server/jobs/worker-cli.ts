// `npm run worker`: runs the pg-boss workers (outbox delivery and its sweep) as their own process, for deployments
// with JOBS_IN_PROCESS=false (ARCHITECTURE §3). Stops on SIGINT/SIGTERM.
import { onShutdown } from '../start';
import { getBoss, startWorkers } from './boss';

await startWorkers();
console.log('workers started');
onShutdown(async () => {
  await (await getBoss()).stop({ graceful: true, wait: true, close: true });
});
