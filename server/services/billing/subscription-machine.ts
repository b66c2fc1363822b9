/**
 * The subscription state machine (docs/rules.md#data, #states) as a pure function, so every transition is tested with
 * any clock: `trialing -> active -> past_due (access suspended) -> active | canceled`.
 *
 * - The 24-hour trial converts by itself: a paid renewal makes it `active` for one calendar month.
 * - A failed renewal suspends access and auto-renewal (`past_due`) and is retried on the next settlement day (+1 day);
 *   after MAX_FAILED_RENEWALS failures in a row the subscription is `canceled` (Stripe's default of four attempts).
 * - A cancel request stops every future charge at once, with no cut-off before the period end: `cancelAt =
 *   currentPeriodEnd`, the current period stays active (requests in progress keep working), and no charge is made
 *   when it ends. Cancelling while `past_due` ends it at once (no access is left).
 * - A refund ends the subscription at once; so does a withdrawal from the contract (`withdrawn`, Directive 2011/83/EU
 *   Art. 9–11a: no further charge, the current period's access ends with it).
 * - A trial in which no location was ever shared ends without converting (`trial_unconsented`, decided
 *   TRIAL_DECISION_LEAD_MS before the trial ends by `trialDecisionDue`); ./unconsented-trials.ts refunds it.
 * - `provider_sync` takes the provider's view (Stripe), which is the source of truth for Stripe subscriptions.
 *
 * No import of the database here: `./subscriptions.ts` applies these transitions in a transaction. Which states give
 * access is lib/subscription-access.ts (re-exported here), which the locate domain reads too.
 */

import { ACCESS_STATUSES, hasAccess, type SubscriptionStatus } from '../../../lib/subscription-access';

export { ACCESS_STATUSES, hasAccess, type SubscriptionStatus };

/** The fields the machine reads and writes. Times are absolute instants. */
export type SubscriptionState = {
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAt: Date | null;
  canceledAt: Date | null;
  nextRetryAt: Date | null;
};

export type SubscriptionEvent =
  | { type: 'renewal_paid'; at: Date }
  | { type: 'renewal_failed'; at: Date; failuresInARow: number }
  | { type: 'cancel_requested'; at: Date }
  | { type: 'period_ended'; at: Date }
  | { type: 'refunded'; at: Date }
  | { type: 'withdrawn'; at: Date }
  | { type: 'trial_unconsented'; at: Date }
  | {
      type: 'provider_sync';
      at: Date;
      status: SubscriptionStatus;
      currentPeriodEnd: Date;
      cancelAt: Date | null;
    };

/** Every state a subscription can be in, in the order of its life. */
export const SUBSCRIPTION_STATES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
] as const satisfies readonly SubscriptionStatus[];

/** The states of a subscription that has not ended. */
const LIVE: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/**
 * The transition table, in the idiom of the order's and the location request's machines (lib/order-machine.ts,
 * lib/request-machine.ts): for each event, the states it may be taken in (`from`) and those it may lead to (`to`).
 * An event in a state not in its `from` changes nothing; `transition` computes the fields within these bounds, and
 * ./subscriptions.ts writes them only if the status is still the one read (a conditional UPDATE).
 */
export const SUBSCRIPTION_TRANSITIONS: Readonly<
  Record<SubscriptionEvent['type'], { from: readonly SubscriptionStatus[]; to: readonly SubscriptionStatus[] }>
> = {
  /** A month paid: on time (trial converted, or renewed) or late (after a failure). */
  renewal_paid: { from: LIVE, to: ['active'] },
  /** A renewal's charge failed: suspended and retried, or ended after MAX_FAILED_RENEWALS in a row. */
  renewal_failed: { from: LIVE, to: ['past_due', 'canceled'] },
  /** The buyer cancels: no more charges, the period runs out (`cancelAt`); while `past_due` it ends at once. */
  cancel_requested: { from: LIVE, to: ['trialing', 'active', 'canceled'] },
  /** A cancelled period ran out. */
  period_ended: { from: LIVE, to: ['canceled'] },
  /** The payment was refunded. */
  refunded: { from: LIVE, to: ['canceled'] },
  /** The buyer withdrew from the contract. */
  withdrawn: { from: LIVE, to: ['canceled'] },
  /** A trial in which nothing was shared ends unconverted. */
  trial_unconsented: { from: ['trialing'], to: ['canceled'] },
  /** The payment provider's view (Stripe), taken as it is. */
  provider_sync: { from: SUBSCRIPTION_STATES, to: SUBSCRIPTION_STATES },
};

/** Failed renewals in a row after which the subscription is canceled. */
export const MAX_FAILED_RENEWALS = 4;
/** A failed renewal is retried on the next settlement day. */
export const RETRY_AFTER_MS = 24 * 3600_000;

/**
 * How long before a trial ends the billing cycle decides whether it converts or is refunded because nothing was
 * shared: 10 minutes. Stripe creates the conversion invoice at `trial_end` (Stripe docs, "Subscription trials"), so
 * the Stripe subscription must be cancelled before then; the cycle runs once a minute, so ten runs fall in the window.
 */
export const TRIAL_DECISION_LEAD_MS = 10 * 60_000;

/** `date` plus `months` calendar months in UTC, clamped to the month's last day (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** Whether a renewal (charge) or the end of a cancelled period is due at `now`. */
export function isDue(state: SubscriptionState, now: Date): boolean {
  if (state.status === 'past_due') return !!state.nextRetryAt && state.nextRetryAt <= now;
  return (state.status === 'trialing' || state.status === 'active') && state.currentPeriodEnd <= now;
}

/**
 * Whether the conversion decision of a trial is due at `now`: the subscription is `trialing` and its trial ends within
 * `leadMs` (default TRIAL_DECISION_LEAD_MS) or has ended. A cancelled trial is included: it ends unconverted anyway,
 * and its payment is refunded all the same when nothing was shared.
 */
export function trialDecisionDue(state: SubscriptionState, now: Date, leadMs = TRIAL_DECISION_LEAD_MS): boolean {
  return state.status === 'trialing' && state.currentPeriodEnd.getTime() - leadMs <= now.getTime();
}

/**
 * The next anniversary of a subscription started at `start` that is after `now`: `start` plus a whole number (≥ 1) of
 * years, on the same calendar day (29 February → 28 February in other years, as `addMonths` clamps).
 */
export function nextAnniversary(start: Date, now: Date): Date {
  // Start in `now`'s year (the earlier anniversary then lies in the year before, so it is not after `now`).
  let years = Math.max(1, now.getUTCFullYear() - start.getUTCFullYear());
  let at = addMonths(start, 12 * years);
  while (at <= now) at = addMonths(start, 12 * ++years);
  return at;
}

/**
 * The state after `event`, or null when the event does not apply (no change: e.g. a renewal of a canceled
 * subscription, a second cancel request). Never mutates `state`.
 */
export function transition(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState | null {
  if (!SUBSCRIPTION_TRANSITIONS[event.type].from.includes(state.status)) return null;
  const ended = (at: Date): SubscriptionState => ({ ...state, status: 'canceled', canceledAt: at, nextRetryAt: null });
  switch (event.type) {
    case 'renewal_paid': {
      if (state.cancelAt) return null;
      // A late (retried) payment starts a new month from the day it succeeds; an on-time one continues the period.
      const from = state.status === 'past_due' ? event.at : state.currentPeriodEnd;
      return { ...state, status: 'active', currentPeriodEnd: addMonths(from, 1), nextRetryAt: null };
    }
    case 'renewal_failed':
      if (state.cancelAt) return null;
      if (event.failuresInARow >= MAX_FAILED_RENEWALS) return ended(event.at);
      return { ...state, status: 'past_due', nextRetryAt: new Date(event.at.getTime() + RETRY_AFTER_MS) };
    case 'cancel_requested':
      if (state.cancelAt) return null;
      if (state.status === 'past_due') return ended(event.at);
      return { ...state, cancelAt: state.currentPeriodEnd };
    case 'period_ended':
      if (!state.cancelAt || state.cancelAt > event.at) return null;
      return ended(event.at);
    case 'refunded':
    case 'withdrawn':
      return ended(event.at);
    case 'trial_unconsented':
      // Only a trial (the table's `from`): once a month was paid, the service was given and the normal refund rules
      // apply.
      return ended(event.at);
    case 'provider_sync': {
      const next: SubscriptionState = {
        status: event.status,
        currentPeriodEnd: event.currentPeriodEnd,
        cancelAt: event.cancelAt,
        canceledAt: event.status === 'canceled' ? (state.canceledAt ?? event.at) : null,
        nextRetryAt: null,
      };
      const same =
        next.status === state.status &&
        next.currentPeriodEnd.getTime() === state.currentPeriodEnd.getTime() &&
        (next.cancelAt?.getTime() ?? null) === (state.cancelAt?.getTime() ?? null);
      return same ? null : next;
    }
  }
}
