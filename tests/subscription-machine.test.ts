import { describe, expect, it } from 'vitest';
import {
  addMonths,
  hasAccess,
  isDue,
  MAX_FAILED_RENEWALS,
  nextAnniversary,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_TRANSITIONS,
  type SubscriptionEvent,
  type SubscriptionState,
  transition,
  TRIAL_DECISION_LEAD_MS,
  trialDecisionDue,
} from '@/server/services/billing';

const T0 = new Date('2026-01-31T10:00:00Z');
const hours = (h: number) => new Date(T0.getTime() + h * 3600_000);
const trial: SubscriptionState = {
  status: 'trialing',
  currentPeriodEnd: hours(24),
  cancelAt: null,
  canceledAt: null,
  nextRetryAt: null,
};

describe('subscription state machine (docs/rules.md#data, #states)', () => {
  it('keeps to its table: an event outside its `from` states changes nothing, and one inside leads only to its `to`', () => {
    const events: SubscriptionEvent[] = [
      { type: 'renewal_paid', at: hours(24) },
      { type: 'renewal_failed', at: hours(24), failuresInARow: 1 },
      { type: 'renewal_failed', at: hours(24), failuresInARow: MAX_FAILED_RENEWALS },
      { type: 'cancel_requested', at: hours(1) },
      { type: 'period_ended', at: hours(48) },
      { type: 'refunded', at: hours(1) },
      { type: 'withdrawn', at: hours(1) },
      { type: 'trial_unconsented', at: hours(23) },
      { type: 'provider_sync', at: hours(1), status: 'active', currentPeriodEnd: hours(700), cancelAt: null },
    ];
    let changes = 0;
    for (const status of SUBSCRIPTION_STATES)
      for (const cancelAt of [null, hours(24)])
        for (const event of events) {
          const next = transition({ ...trial, status, cancelAt, nextRetryAt: hours(30) }, event);
          const { from, to } = SUBSCRIPTION_TRANSITIONS[event.type];
          if (!from.includes(status)) expect(next, `${event.type} in ${status}`).toBeNull();
          if (next) {
            expect(to, `${event.type} in ${status}`).toContain(next.status);
            changes++;
          }
        }
    // Most pairs change something: the table is not one that refuses everything.
    expect(changes).toBeGreaterThan(30);
  });

  it('adds calendar months, clamped to the last day of the month', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths(new Date('2026-12-15T00:00:00Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('trial: access for 24 hours, due when it ends', () => {
    expect(hasAccess(trial, hours(23.9))).toBe(true);
    expect(isDue(trial, hours(23.9))).toBe(false);
    expect(isDue(trial, hours(24))).toBe(true);
    expect(hasAccess(trial, hours(24))).toBe(false);
  });

  it('trialing → active: the paid conversion continues from the end of the trial for one month', () => {
    const next = transition(trial, { type: 'renewal_paid', at: hours(24.01) })!;
    expect(next.status).toBe('active');
    expect(next.currentPeriodEnd.toISOString()).toBe(addMonths(hours(24), 1).toISOString());
    expect(hasAccess(next, hours(25))).toBe(true);
  });

  it('active → active: each paid renewal adds a month', () => {
    const active = transition(trial, { type: 'renewal_paid', at: hours(24) })!;
    const again = transition(active, { type: 'renewal_paid', at: active.currentPeriodEnd })!;
    expect(again.currentPeriodEnd.toISOString()).toBe(addMonths(active.currentPeriodEnd, 1).toISOString());
  });

  it('failed renewal → past_due: access suspended, retried on the next settlement day', () => {
    const due = transition(trial, { type: 'renewal_failed', at: hours(24), failuresInARow: 1 })!;
    expect(due.status).toBe('past_due');
    expect(due.nextRetryAt!.toISOString()).toBe(hours(48).toISOString());
    expect(hasAccess(due, hours(25))).toBe(false);
    expect(isDue(due, hours(47))).toBe(false);
    expect(isDue(due, hours(48))).toBe(true);
  });

  it('past_due → active: a late payment starts a new month from the day it succeeds', () => {
    const due = transition(trial, { type: 'renewal_failed', at: hours(24), failuresInARow: 1 })!;
    const paid = transition(due, { type: 'renewal_paid', at: hours(48) })!;
    expect(paid.status).toBe('active');
    expect(paid.nextRetryAt).toBeNull();
    expect(paid.currentPeriodEnd.toISOString()).toBe(addMonths(hours(48), 1).toISOString());
    expect(hasAccess(paid, hours(49))).toBe(true);
  });

  it(`past_due → canceled after ${MAX_FAILED_RENEWALS} failures in a row`, () => {
    let state = trial;
    for (let n = 1; n < MAX_FAILED_RENEWALS; n++) {
      state = transition(state, { type: 'renewal_failed', at: hours(24 * n), failuresInARow: n })!;
      expect(state.status).toBe('past_due');
    }
    const ended = transition(state, {
      type: 'renewal_failed',
      at: hours(24 * MAX_FAILED_RENEWALS),
      failuresInARow: MAX_FAILED_RENEWALS,
    })!;
    expect(ended.status).toBe('canceled');
    expect(ended.canceledAt).toEqual(hours(24 * MAX_FAILED_RENEWALS));
  });

  it('cancel request during the trial: access until the trial ends, then canceled without a charge', () => {
    const asked = transition(trial, { type: 'cancel_requested', at: hours(2) })!;
    expect(asked.status).toBe('trialing');
    expect(asked.cancelAt).toEqual(trial.currentPeriodEnd);
    expect(hasAccess(asked, hours(23))).toBe(true);
    // No conversion charge can apply to it.
    expect(transition(asked, { type: 'renewal_paid', at: hours(24) })).toBeNull();
    expect(transition(asked, { type: 'period_ended', at: hours(23) })).toBeNull();
    const ended = transition(asked, { type: 'period_ended', at: hours(24) })!;
    expect(ended.status).toBe('canceled');
    // A second request changes nothing.
    expect(transition(asked, { type: 'cancel_requested', at: hours(3) })).toBeNull();
  });

  it('cancel request while active keeps the current month; while past_due ends at once', () => {
    const active = transition(trial, { type: 'renewal_paid', at: hours(24) })!;
    const asked = transition(active, { type: 'cancel_requested', at: hours(30) })!;
    expect(asked.status).toBe('active');
    expect(asked.cancelAt).toEqual(active.currentPeriodEnd);
    const due = transition(trial, { type: 'renewal_failed', at: hours(24), failuresInARow: 1 })!;
    const ended = transition(due, { type: 'cancel_requested', at: hours(30) })!;
    expect(ended.status).toBe('canceled');
    expect(ended.canceledAt).toEqual(hours(30));
  });

  it('a refund ends the subscription at once; nothing applies to a canceled one', () => {
    const ended = transition(trial, { type: 'refunded', at: hours(1) })!;
    expect(ended.status).toBe('canceled');
    for (const event of [
      { type: 'renewal_paid', at: hours(24) },
      { type: 'renewal_failed', at: hours(24), failuresInARow: 1 },
      { type: 'cancel_requested', at: hours(2) },
      { type: 'refunded', at: hours(2) },
    ] as const) {
      expect(transition(ended, event)).toBeNull();
    }
  });

  it("provider_sync takes the provider's state, and is a no-op when nothing differs", () => {
    const synced = transition(trial, {
      type: 'provider_sync',
      at: hours(25),
      status: 'active',
      currentPeriodEnd: hours(24 + 720),
      cancelAt: null,
    })!;
    expect(synced).toMatchObject({ status: 'active', currentPeriodEnd: hours(744) });
    expect(
      transition(synced, {
        type: 'provider_sync',
        at: hours(26),
        status: 'active',
        currentPeriodEnd: hours(744),
        cancelAt: null,
      }),
    ).toBeNull();
    const canceled = transition(synced, {
      type: 'provider_sync',
      at: hours(30),
      status: 'canceled',
      currentPeriodEnd: hours(744),
      cancelAt: null,
    })!;
    expect(canceled.canceledAt).toEqual(hours(30));
  });

  it('trial_unconsented: a trial ends at once (also a cancelled one); a paid month or an ended subscription does not change', () => {
    const ended = transition(trial, { type: 'trial_unconsented', at: hours(23.9) })!;
    expect(ended).toMatchObject({ status: 'canceled', canceledAt: hours(23.9), nextRetryAt: null });
    expect(hasAccess(ended, hours(23.95))).toBe(false);
    const cancelled = transition(trial, { type: 'cancel_requested', at: hours(2) })!;
    expect(transition(cancelled, { type: 'trial_unconsented', at: hours(23.9) })?.status).toBe('canceled');
    const active = transition(trial, { type: 'renewal_paid', at: hours(24) })!;
    expect(transition(active, { type: 'trial_unconsented', at: hours(25) })).toBeNull();
    expect(transition(ended, { type: 'trial_unconsented', at: hours(24) })).toBeNull();
    const pastDue = transition(trial, { type: 'renewal_failed', at: hours(24), failuresInARow: 1 })!;
    expect(transition(pastDue, { type: 'trial_unconsented', at: hours(25) })).toBeNull();
  });

  it('the trial decision is due 10 minutes before the trial ends, and after; only for a trial', () => {
    expect(TRIAL_DECISION_LEAD_MS).toBe(10 * 60_000);
    expect(trialDecisionDue(trial, new Date(hours(24).getTime() - TRIAL_DECISION_LEAD_MS - 1))).toBe(false);
    expect(trialDecisionDue(trial, new Date(hours(24).getTime() - TRIAL_DECISION_LEAD_MS))).toBe(true);
    expect(trialDecisionDue(trial, hours(30))).toBe(true);
    const active = transition(trial, { type: 'renewal_paid', at: hours(24) })!;
    expect(trialDecisionDue(active, hours(24 * 40))).toBe(false);
  });

  it('the next anniversary: whole years after the start, strictly after now; 29 February clamps to 28', () => {
    const start = new Date('2026-03-15T08:00:00Z');
    expect(nextAnniversary(start, start).toISOString()).toBe('2027-03-15T08:00:00.000Z');
    expect(nextAnniversary(start, new Date('2027-03-15T07:59:59Z')).toISOString()).toBe('2027-03-15T08:00:00.000Z');
    expect(nextAnniversary(start, new Date('2027-03-15T08:00:00Z')).toISOString()).toBe('2028-03-15T08:00:00.000Z');
    expect(nextAnniversary(start, new Date('2029-01-02T00:00:00Z')).toISOString()).toBe('2029-03-15T08:00:00.000Z');
    const leap = new Date('2028-02-29T12:00:00Z');
    expect(nextAnniversary(leap, leap).toISOString()).toBe('2029-02-28T12:00:00.000Z');
    expect(nextAnniversary(leap, new Date('2031-06-01T00:00:00Z')).toISOString()).toBe('2032-02-29T12:00:00.000Z');
  });
});
