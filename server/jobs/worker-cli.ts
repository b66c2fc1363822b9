// `npm run worker`: runs the pg-boss workers (outbox delivery and its sweep) as their own process, for deployments
// with JOBS_IN_PROCESS=false (ARCHITECTURE §3). Stops on SIGINT/SIGTERM.
import { getBoss, startWorkers } from './boss';

await startWorkers();
console.log('workers started');
const stop = async () => {
  await (await getBoss()).stop({ graceful: true });
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
