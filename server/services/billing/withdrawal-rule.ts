/**
 * The refund rule of a withdrawal from the contract, as a pure function (no database, any clock), so every case is
 * tested with time travel. The rule (Directive 2011/83/EU, as amended by Directive (EU) 2023/2673; texts for the buyer
 * in messages/*.json `Withdraw`, reviewed by a lawyer):
 *
 * - The withdrawal period is WITHDRAWAL_DAYS (14) days from the contract, i.e. the order's payment (Art. 9(1), 9(2)(a)
 *   for service contracts). After it, there is no right of withdrawal: the buyer may still cancel.
 * - Within it, everything paid under the contract (the trial and any renewal) is refunded in full (Art. 13(1)) —
 *   unless the buyer asked for the service to start at once (`startNow`, stated on the pay step before payment,
 *   Art. 7(3)) and a location was shared since the payment: then the buyer pays for what was provided until the
 *   withdrawal (Art. 14(3)), so only the unused part of the current period is refunded, in proportion to time; earlier
 *   periods were used in full. A period already over refunds nothing.
 * - Rounding: the pro-rata refund is rounded UP to the whole minor unit, in the buyer's favour (what the buyer keeps
 *   paying is never more than the proportion of the period used).
 */

/** Days of the withdrawal period (Directive 2011/83/EU Art. 9(1)). */
export const WITHDRAWAL_DAYS = 14;
const DAY_MS = 86_400_000;

/** One successful charge under the contract: the initial (trial) payment or a renewal. Minor units. */
export type PaidCharge = { amountMinor: number; at: Date };

export type WithdrawalInput = {
  /** When the order was paid: the contract's start. */
  paidAt: Date;
  /** The withdrawal's moment. */
  now: Date;
  /** The buyer asked for the service to start at once (orders.start_now). */
  startNow: boolean;
  /** A location was shared with the buyer since `paidAt` (./subscriptions.ts `locationSharedSince`). */
  shared: boolean;
  /** Every successful charge of the contract, any order. */
  charges: PaidCharge[];
  /** The end of the current paid period (subscriptions.current_period_end); null without a subscription. */
  currentPeriodEnd: Date | null;
  /** The subscription already ended (canceled): no period is running. */
  ended: boolean;
};

export type WithdrawalQuote = {
  /** The last moment of the withdrawal period. */
  deadline: Date;
  withinPeriod: boolean;
  /** `full`: everything paid comes back; `pro_rata`: the unused part of the current period. */
  rule: 'full' | 'pro_rata';
  /** Sum of the charges, minor units. */
  paidMinor: number;
  /** What the withdrawal refunds (0 outside the period), minor units. */
  refundMinor: number;
};

/**
 * The refund of a withdrawal at `input.now` under the rule above. Minor units; never negative, never more than paid.
 * Outside the period `refundMinor` is 0 and `withinPeriod` false (the caller offers cancellation instead).
 */
export function withdrawalQuote(input: WithdrawalInput): WithdrawalQuote {
  const deadline = new Date(input.paidAt.getTime() + WITHDRAWAL_DAYS * DAY_MS);
  const withinPeriod = input.now.getTime() <= deadline.getTime();
  const paidMinor = input.charges.reduce((sum, c) => sum + c.amountMinor, 0);
  const rule = input.startNow && input.shared ? 'pro_rata' : 'full';
  if (!withinPeriod) return { deadline, withinPeriod, rule, paidMinor, refundMinor: 0 };
  if (rule === 'full') return { deadline, withinPeriod, rule, paidMinor, refundMinor: paidMinor };
  return { deadline, withinPeriod, rule, paidMinor, refundMinor: proRata(input) };
}

/**
 * The unused part of the current period's charge: the newest charge pays for the period from its moment to
 * `currentPeriodEnd`; the share of that span still ahead of `now`, times the charge, rounded up. 0 when the period is
 * over or the subscription ended.
 */
function proRata({ charges, currentPeriodEnd, now, ended }: WithdrawalInput): number {
  if (ended || !currentPeriodEnd || !charges.length) return 0;
  const last = charges.reduce((a, b) => (b.at.getTime() >= a.at.getTime() ? b : a));
  const span = currentPeriodEnd.getTime() - last.at.getTime();
  const left = currentPeriodEnd.getTime() - now.getTime();
  if (span <= 0 || left <= 0) return 0;
  if (left >= span) return last.amountMinor;
  // Exact integer division rounded up: ⌈amount × left / span⌉.
  const [amount, l, s] = [BigInt(last.amountMinor), BigInt(left), BigInt(span)];
  return Number((amount * l + s - BigInt(1)) / s);
}
