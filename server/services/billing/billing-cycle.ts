import 'server-only';
import type { Db } from '../../db/client';
import { sendAnnualNotices } from './annual-notices';
import { renewDueSubscriptions, sendTrialReminders } from './renewals';
import { finishUnconsentedRefund, refundUnconsentedTrials } from './unconsented-trials';
import { finishStaleRefundClaims } from './refund-claims';
import { finishRequestedRefund } from './refunds';
import { finishWithdrawal } from './withdrawals';

// The once-a-minute billing job (server/jobs/boss.ts, queue `billing-cycle`): the folder's background steps, in the
// one order in which they run (docs/rules.md "Payments").

/**
 * The billing job, once a minute (server/jobs/boss.ts), at `now`, in this order:
 * 0. refunds claimed by a process that died before recording them (older than REFUND_CLAIM_STALE_MS on the wall
 *    clock) are finished with their stored idempotency key (./refund-claims.ts);
 * 1. trials ending within 10 minutes in which nothing was shared are refunded and end (./unconsented-trials.ts,
 *    sandbox and Stripe; off with REFUND_UNCONSENTED_TRIALS=false);
 * 2. due sandbox renewals are charged, each with its receipt (./renewals.ts; Stripe renews by itself and
 *    its invoices arrive as webhooks);
 * 3. the trial reminder, TRIAL_REMINDER_HOURS before a trial converts;
 * 4. the annual reminder, ANNUAL_NOTICE_DAYS before each anniversary (./annual-notices.ts).
 * Every step is safe to run from several workers at once (row locks, conditional claims, unique refunds). The e-mails
 * they write go out when their transactions commit (the outbox's trigger, server/jobs/outbox-listener.ts).
 */
export async function runBillingCycle(db: Db, now: Date = new Date()): Promise<void> {
  await finishStaleRefundClaims(db, {
    requested: finishRequestedRefund,
    withdrawal: finishWithdrawal,
    unconsented_trial: finishUnconsentedRefund,
  });
  await refundUnconsentedTrials(db, now);
  await renewDueSubscriptions(db, now);
  await sendTrialReminders(db, now);
  await sendAnnualNotices(db, now);
}
