// `npm run report:funnel -- --days 7`: prints the funnel per locale and channel from the operation
// log of DATABASE_URL (or the embedded database): visits → locate submitted → paid → consent opened → shared.
import { parseArgs } from 'node:util';
import { getDbState } from '../db/client';
import { formatFunnel, funnelReport } from '../services/events';

const { values } = parseArgs({ options: { days: { type: 'string', default: '7' } } });
const days = Number(values.days);
if (!Number.isFinite(days) || days <= 0 || days > 3650) {
  console.error('--days must be a number of days between 1 and 3650');
  process.exit(2);
}
const { db, close } = await getDbState();
console.log(formatFunnel(await funnelReport(db, days), days));
await close();
process.exit(0);
