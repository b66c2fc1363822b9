import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { domainEvents, locationRequests, orders, outboundMessages, payments, refunds } from '@/server/db/schema';
import { env } from '@/server/env';
import { nextAnniversary, runBillingCycle, TRIAL_DECISION_LEAD_MS } from '@/server/services/billing';
import { emailDateTime } from '@/server/services/messaging';
import { call } from './support/accounts';
import { emailsTo, subscribe, subscriptionById } from './support/billing';

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
const MINUTE = 60_000;
const DAY = 24 * 3600_000;

afterEach(() => {
  env().REFUND_UNCONSENTED_TRIALS = true;
});

/** The consent code of order `orderId`'s request, read from the stored SMS, and the request id. */
async function consentOf(orderId: string) {
  const db = await getDb();
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, orderId));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, request.id));
  return { requestId: request.id, code: /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1] };
}

/** The owner answers on the consent page through the API: `decline`, or `share` with a first fix. */
async function ownerAnswers(orderId: string, action: 'decline' | 'share') {
  const { code } = await consentOf(orderId);
  await call('GET', `/spyContent/consent/${code}`);
  const body: Record<string, string | number> =
    action === 'share' ? { action, minutes: 60, latitude: 48.8584, longitude: 2.2945, accuracy: 12 } : { action };
  const res = await call('PUT', `/spyContent/phoneLocation/${code}`, { body });
  expect((await res.json()).obj.status).toBe(action === 'share' ? 'sharing' : 'declined');
}

async function chargesOf(subscriptionId: string) {
  const rows = await (await getDb()).select().from(payments).where(eq(payments.subscriptionId, subscriptionId));
  return rows.filter((p) => p.kind === 'renewal');
}

async function refundsOf(orderId: string) {
  return (await getDb()).select().from(refunds).where(eq(refunds.orderId, orderId));
}

describe('money back when nobody consented: a trial without a shared location is refunded, not converted', () => {
  it('owner declined: 10 minutes before the trial ends it is refunded, ended, and the buyer is told why', async () => {
    const email = unique('declined');
    const { sub, order } = await subscribe(email);
    await ownerAnswers(order.id, 'decline');
    const end = sub.currentPeriodEnd.getTime();
    const db = await getDb();

    await runBillingCycle(db, new Date(end - TRIAL_DECISION_LEAD_MS - MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('trialing');
    expect(await refundsOf(order.id)).toHaveLength(0);

    const at = new Date(end - TRIAL_DECISION_LEAD_MS + MINUTE);
    await runBillingCycle(db, at);
    const ended = await subscriptionById(sub.id);
    expect(ended).toMatchObject({ status: 'canceled', canceledAt: at });
    const [refund] = await refundsOf(order.id);
    expect(refund).toMatchObject({ amountMinor: order.amountMinor, currency: order.currency });
    expect(refund.providerRef).toMatch(/^sbx_re_/);
    const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(after).toMatchObject({ status: 'refunded', refundedAt: at });
    const [mail] = await emailsTo(email, 'trial-refunded');
    expect(mail.subject).toContain('your trial was refunded');
    expect(mail.body).toContain('no location was shared with you');
    expect(mail.body).toContain('we have refunded the trial price of US$0.99');
    expect(mail.body).toContain(order.reference);
    const events = await db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.aggregateId, sub.id), eq(domainEvents.type, 'subscription.trial_unconsented')));
    expect(events).toHaveLength(1);

    // The trial's end passes: nothing is charged, ever.
    await runBillingCycle(db, new Date(end + MINUTE));
    await runBillingCycle(db, new Date(end + 31 * DAY));
    expect(await chargesOf(sub.id)).toHaveLength(0);
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await emailsTo(email, 'trial-refunded')).toHaveLength(1);
  });

  it('the owner never opened the link: the open request ends with the refund (withdrawn), in Spanish', async () => {
    const email = unique('unopened');
    const { sub, order } = await subscribe(email);
    const db = await getDb();
    await db.update(orders).set({ locale: 'es' }).where(eq(orders.id, order.id));
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    expect(request.status).toBe('withdrawn');
    expect(request.withdrawnAt).not.toBeNull();
    const [mail] = await emailsTo(email, 'trial-refunded');
    expect(mail.body).toContain('nadie compartió contigo ninguna ubicación');
  });

  it('the cycle missed the window (ran only after the trial ended): still refunded, never converted', async () => {
    const { sub, order } = await subscribe(unique('late-cycle'));
    await runBillingCycle(await getDb(), new Date(sub.currentPeriodEnd.getTime() + 2 * MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    expect(await chargesOf(sub.id)).toHaveLength(0);
    expect(await refundsOf(order.id)).toHaveLength(1);
  });

  it('a cancelled trial in which nothing was shared is refunded too', async () => {
    const { sub, order, cookie } = await subscribe(unique('cancelled-trial'));
    await call('PUT', '/admin/user/cancelSubscribe', { headers: { cookie } });
    await runBillingCycle(await getDb(), new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    expect(await refundsOf(order.id)).toHaveLength(1);
  });

  it('the owner shared: the trial converts to a paid month, with its receipt', async () => {
    const email = unique('shared');
    const { sub, order } = await subscribe(email);
    await ownerAnswers(order.id, 'share');
    const end = sub.currentPeriodEnd.getTime();
    const db = await getDb();
    await runBillingCycle(db, new Date(end - 5 * MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('trialing');
    await runBillingCycle(db, new Date(end + MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('active');
    expect(await chargesOf(sub.id)).toHaveLength(1);
    expect(await refundsOf(order.id)).toHaveLength(0);
    expect(await emailsTo(email, 'trial-refunded')).toHaveLength(0);
    expect(await emailsTo(email, 'payment-receipt')).toHaveLength(1);
  });

  it('REFUND_UNCONSENTED_TRIALS=false: an unshared trial converts as before', async () => {
    env().REFUND_UNCONSENTED_TRIALS = false;
    const { sub, order } = await subscribe(unique('setting-off'));
    await ownerAnswers(order.id, 'decline');
    const db = await getDb();
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() - 5 * MINUTE));
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() + MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('active');
    expect(await chargesOf(sub.id)).toHaveLength(1);
    expect(await refundsOf(order.id)).toHaveLength(0);
  });

  it('20 billing cycles at once refund once and send one e-mail', async () => {
    const email = unique('concurrent');
    const { sub, order } = await subscribe(email);
    const db = await getDb();
    const at = new Date(sub.currentPeriodEnd.getTime() - 3 * MINUTE);
    await Promise.all(Array.from({ length: 20 }, () => runBillingCycle(db, at)));
    // Cycles that skipped the locked row decide again later and find it done.
    await Promise.all(Array.from({ length: 5 }, () => runBillingCycle(db, new Date(at.getTime() + MINUTE))));
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await emailsTo(email, 'trial-refunded')).toHaveLength(1);
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    const events = await db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.aggregateId, order.id), eq(domainEvents.type, 'order.refunded')));
    expect(events).toHaveLength(1);
  });
});

describe('receipts and reminders', () => {
  it('the order e-mail is the trial receipt: charged when, paid with what, statement descriptor, how to cancel', async () => {
    const email = unique('trial-receipt');
    const { order } = await subscribe(email);
    const [mail] = await emailsTo(email, 'order-credentials');
    expect(mail.body).toContain(`$0.99 for a 24-hour trial, charged on ${emailDateTime(order.paidAt!, 'en')}`);
    expect(mail.body).toContain('Paid with Visa •••• 4242. Your card statement shows:');
    expect(mail.body).toContain(`${env().APP_ORIGIN}/cancel/ (no sign-in needed)`);
    expect(mail.body).toContain('Cancelling stops every future charge at once');
    expect(mail.body).toContain('If no location has been shared with you by the end of the trial');
  });

  // Thirteen billing cycles over a year run over every subscription of the shared test database: a minute's room.
  it('every renewal e-mails a receipt; the annual reminder comes 7 days before each anniversary, once, with a one-click cancel', async () => {
    const email = unique('yearly');
    const { sub, order } = await subscribe(email);
    await ownerAnswers(order.id, 'share');
    const db = await getDb();
    const first = nextAnniversary(sub.createdAt, sub.createdAt);
    const noticeAt = first.getTime() - 7 * DAY;
    // Renew month after month until the notice window opens.
    for (let s = await subscriptionById(sub.id); s.currentPeriodEnd.getTime() < noticeAt;) {
      await runBillingCycle(db, new Date(s.currentPeriodEnd.getTime() + MINUTE));
      const next = await subscriptionById(sub.id);
      expect(next.currentPeriodEnd.getTime()).toBeGreaterThan(s.currentPeriodEnd.getTime());
      s = next;
    }
    const charges = await chargesOf(sub.id);
    expect(charges).toHaveLength(12);
    const receipts = await emailsTo(email, 'payment-receipt');
    expect(receipts).toHaveLength(12);
    expect(receipts[0].subject).toContain(`receipt for US$49.99 (order ${order.reference})`);
    expect(receipts[0].body).toContain('$49.99 for one month of the plan, charged on');
    expect(receipts[0].body).toContain('Paid with Visa •••• 4242');
    expect(receipts[0].body).toContain('/cancel/ (no sign-in needed)');
    expect(await emailsTo(email, 'annual-notice')).toHaveLength(0);

    await runBillingCycle(db, new Date(noticeAt - 60 * MINUTE));
    expect(await emailsTo(email, 'annual-notice')).toHaveLength(0);
    // 20 cycles at once inside the window: one reminder.
    await Promise.all(Array.from({ length: 20 }, () => runBillingCycle(db, new Date(noticeAt + MINUTE))));
    await runBillingCycle(db, new Date(noticeAt + 3 * DAY));
    const notices = await emailsTo(email, 'annual-notice');
    expect(notices).toHaveLength(1);
    const live = await subscriptionById(sub.id);
    expect(notices[0].body).toContain('renews automatically every month at US$49.99');
    expect(notices[0].body).toContain(`The next charge is US$49.99 on ${emailDateTime(live.currentPeriodEnd, 'en')}`);
    const token = /\/cancel\/\?token=([\w-]+)/.exec(notices[0].body)![1];

    // The one-click cancel: the link shows the confirmation, confirming stops every future charge.
    expect((await (await call('GET', `/portal/cancel/link/${token}`)).json()).obj.state).toBe('usable');
    const confirm = await call('POST', '/portal/cancel/confirm', { body: { token } });
    expect((await confirm.json()).obj.cancelAt).toEqual([live.currentPeriodEnd.toISOString()]);
    await runBillingCycle(db, new Date(live.currentPeriodEnd.getTime() + MINUTE));
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    expect(await chargesOf(sub.id)).toHaveLength(12);
  }, 60_000);

  it('the second anniversary gets its own reminder', async () => {
    const email = unique('two-years');
    const { sub, order } = await subscribe(email);
    await ownerAnswers(order.id, 'share');
    const db = await getDb();
    const first = nextAnniversary(sub.createdAt, sub.createdAt);
    const second = nextAnniversary(sub.createdAt, first);
    const renewUntil = async (t: number) => {
      for (let s = await subscriptionById(sub.id); s.currentPeriodEnd.getTime() < t;) {
        await runBillingCycle(db, new Date(s.currentPeriodEnd.getTime() + MINUTE));
        s = await subscriptionById(sub.id);
      }
    };
    await renewUntil(first.getTime() - 7 * DAY);
    await runBillingCycle(db, new Date(first.getTime() - 6 * DAY));
    expect(await emailsTo(email, 'annual-notice')).toHaveLength(1);
    await renewUntil(second.getTime() - 7 * DAY);
    await runBillingCycle(db, new Date(second.getTime() - 6 * DAY));
    await runBillingCycle(db, new Date(second.getTime() - 5 * DAY));
    expect(await emailsTo(email, 'annual-notice')).toHaveLength(2);
    expect(await chargesOf(sub.id)).toHaveLength(24);
  });
});
