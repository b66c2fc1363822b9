import 'server-only';
import type { Db } from '../../db/client';
import { funnelReport } from '../events';

// The console's funnel report.

/** The funnel report of the last `days` days (services/events.ts), as the CLI prints it. */
export function opsFunnel(db: Db, days: number) {
  return funnelReport(db, days);
}
