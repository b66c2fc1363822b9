import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { cancelTokens, locationRequests, payments, refunds } from '@/server/db/schema';
import { addMonths, MAX_FAILED_RENEWALS, runBillingCycle } from '@/server/services/billing';
import { call } from './support/accounts';
import { emailsTo, markShared, subscribe, subscriptionById } from './support/billing';

const unique = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.com`;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function renewalsOf(subscriptionId: string) {
  return (await getDb()).select().from(payments).where(eq(payments.subscriptionId, subscriptionId));
}

describe('renewals: the billing job with a fake clock (docs/rules.md#states)', () => {
  it('reminds 4 hours before the trial converts, once, then converts it to a paid month', async () => {
    const email = unique('convert');
    const { sub } = await subscribe(email);
    await markShared(sub.orderId); // the owner shared during the trial, so it converts
    const end = sub.currentPeriodEnd.getTime();
    const db = await getDb();

    await runBillingCycle(db, new Date(end - 5 * HOUR));
    expect(await emailsTo(email, 'trial-reminder')).toHaveLength(0);
    await runBillingCycle(db, new Date(end - 3.9 * HOUR));
    await runBillingCycle(db, new Date(end - 3 * HOUR));
    const reminders = await emailsTo(email, 'trial-reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0].body).toContain('US$49.99 per month');

    await runBillingCycle(db, new Date(end + 60_000));
    const after = await subscriptionById(sub.id);
    expect(after.status).toBe('active');
    expect(after.currentPeriodEnd.toISOString()).toBe(addMonths(sub.currentPeriodEnd, 1).toISOString());
    const charges = await renewalsOf(sub.id);
    expect(charges.filter((p) => p.kind === 'renewal')).toMatchObject([{ status: 'succeeded', amountMinor: 4999 }]);
    // Running again at the same moment charges nothing more.
    await runBillingCycle(db, new Date(end + 60_000));
    expect((await renewalsOf(sub.id)).filter((p) => p.kind === 'renewal')).toHaveLength(1);
  });

  it('4000…0341: the conversion fails → past_due without access, retried daily, canceled after the last try', async () => {
    const email = unique('fails');
    const { sub, cookie } = await subscribe(email, '4000000000000341');
    await markShared(sub.orderId);
    const end = sub.currentPeriodEnd.getTime();
    const db = await getDb();
    await runBillingCycle(db, new Date(end + 1000));
    const due = await subscriptionById(sub.id);
    expect(due.status).toBe('past_due');
    expect(due.nextRetryAt!.getTime()).toBe(end + 1000 + DAY);
    expect(await emailsTo(email, 'renewal-failed')).toHaveLength(1);
    // Access is suspended: no new location request.
    const blocked = await call('POST', '/spyContent/phoneLocation', {
      body: { phone: '+14155552671', requesterName: 'Anna' },
      headers: { cookie },
    });
    expect(blocked.status).toBe(403);
    expect((await blocked.json()).msg).toBe('Please re-purchase after the account has expired');

    // Not retried before the next settlement day.
    await runBillingCycle(db, new Date(end + DAY - 1000));
    expect((await renewalsOf(sub.id)).filter((p) => p.kind === 'renewal')).toHaveLength(1);
    for (let n = 2; n <= MAX_FAILED_RENEWALS; n++) await runBillingCycle(db, new Date(end + n * DAY));
    const ended = await subscriptionById(sub.id);
    expect(ended.status).toBe('canceled');
    expect((await renewalsOf(sub.id)).filter((p) => p.kind === 'renewal')).toHaveLength(MAX_FAILED_RENEWALS);
    expect(await emailsTo(email, 'subscription-ended')).toHaveLength(1);
  });

  it('cancel during the trial (PUT /admin/user/cancelSubscribe): access until the trial ends, no conversion charge', async () => {
    const email = unique('cancel');
    const { sub, cookie } = await subscribe(email);
    const res = await call('PUT', '/admin/user/cancelSubscribe', { headers: { cookie } });
    const { obj } = await res.json();
    expect(obj.cancelAt).toEqual([sub.currentPeriodEnd.toISOString()]);
    expect(await emailsTo(email, 'subscription-canceled')).toHaveLength(1);
    const status = await (await call('GET', '/admin/order/status', { headers: { cookie } })).json();
    expect(status.obj.subscriptions[0]).toMatchObject({ status: 'trialing', nextBillingAt: null });

    const db = await getDb();
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() - 3 * HOUR));
    expect(await emailsTo(email, 'trial-reminder')).toHaveLength(0);
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() + 1000));
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    expect((await renewalsOf(sub.id)).filter((p) => p.kind === 'renewal')).toHaveLength(0);
    // A second cancel finds nothing left to cancel.
    const again = await call('PUT', '/admin/user/cancelSubscribe', { headers: { cookie } });
    expect((await again.json()).obj.cancelAt).toEqual([]);
  });

  it('/cancel without signing in: a link by e-mail cancels the same way; the link works once', async () => {
    const email = unique('by-email');
    const { sub } = await subscribe(email);
    const unknown = await call('POST', '/portal/cancel/request', { body: { email: unique('nobody') } });
    const known = await call('POST', '/portal/cancel/request', { body: { email } });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    const [mail] = await emailsTo(email, 'cancel-link');
    const token = /\/cancel\/\?token=([\w-]+)/.exec(mail.body)![1];
    const rows = await (await getDb()).select().from(cancelTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false); // only the hash is stored

    const before = await call('GET', `/portal/cancel/link/${token}`);
    expect((await before.json()).obj).toEqual({ state: 'usable', subscription: null });
    const confirm = await call('POST', '/portal/cancel/confirm', { body: { token } });
    expect((await confirm.json()).obj.cancelAt).toEqual([sub.currentPeriodEnd.toISOString()]);
    // The used link tells what became of the subscription instead of offering the button again.
    const after = await call('GET', `/portal/cancel/link/${token}`);
    expect((await after.json()).obj).toEqual({
      state: 'used',
      subscription: { status: 'trialing', cancelling: true, endsAt: sub.currentPeriodEnd.toISOString() },
    });
    const bogus = await call('GET', `/portal/cancel/link/${'x'.repeat(43)}`);
    expect((await bogus.json()).obj).toEqual({ state: 'unknown', subscription: null });
    expect((await subscriptionById(sub.id)).cancelAt).toEqual(sub.currentPeriodEnd);
    const reused = await call('POST', '/portal/cancel/confirm', { body: { token } });
    expect(reused.status).toBe(410);
    expect((await reused.json()).msg).toBe(
      'This cancellation link has expired or was already used. Please ask for a new one.',
    );
  });

  it('the cancel form is rate limited per address', async () => {
    const email = unique('limit');
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/portal/cancel/request', { body: { email } })).status).toBe(200);
    const fourth = await call('POST', '/portal/cancel/request', { body: { email } });
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBeTruthy();
  });
});

describe('refunds (docs/rules.md#limits: 14 days, service not performed)', () => {
  const refundAt = async (cookie: string, code: string, at: number) => {
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    try {
      const detail = await (
        await call('POST', '/admin/order/refundDetail', { body: { code }, headers: { cookie } })
      ).json();
      const res = await call('POST', '/admin/order/refund', { body: { code }, headers: { cookie } });
      return { detail: detail.obj, res, body: await res.json() };
    } finally {
      vi.useRealTimers();
    }
  };

  it('allowed at 13 days 23 hours; a second refund is a no-op; the subscription ends', async () => {
    const email = unique('refund');
    const { code, cookie, order, sub } = await subscribe(email);
    const { detail, res, body } = await refundAt(cookie, code, order.paidAt!.getTime() + 14 * DAY - HOUR);
    expect(detail).toMatchObject({ eligible: true, amount: 'US$0.99', businessDays: '7-10' });
    expect(res.status).toBe(200);
    expect(body.msg).toBe('Refund of US$0.99 issued. Card refunds arrive in 7 to 10 business days.');
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    const second = await refundAt(cookie, code, order.paidAt!.getTime() + 14 * DAY - HOUR + 1000);
    expect(second.body.obj.repeated).toBe(true);
    expect(await (await getDb()).select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    expect(await emailsTo(email, 'refund-issued')).toHaveLength(1);
  });

  it('refused at 14 days and 1 second', async () => {
    const { code, cookie, order } = await subscribe(unique('late'));
    const { detail, res, body } = await refundAt(cookie, code, order.paidAt!.getTime() + 14 * DAY + 1000);
    expect(detail).toMatchObject({ eligible: false, reason: 'window_passed' });
    expect(detail.message).toBe('Refunds can be requested within 14 days of the transaction.');
    expect(res.status).toBe(409);
    expect(body.msg).toBe('Refunds can be requested within 14 days of the transaction.');
    // The reason is named, so the page can say why and point to support.
    expect(body).toMatchObject({ reason: 'window_passed' });
  });

  it('says why a refund is refused, in the reader’s language: already refunded, a location was shared', async () => {
    const refunded = await subscribe(unique('twice'));
    expect(
      (
        await call('POST', '/admin/order/refund', {
          body: { code: refunded.code },
          headers: { cookie: refunded.cookie },
        })
      ).status,
    ).toBe(200);
    const again = await (
      await call('POST', '/admin/order/refundDetail', {
        body: { code: refunded.code },
        headers: { cookie: refunded.cookie, 'accept-language': 'es' },
      })
    ).json();
    expect(again.obj).toMatchObject({
      eligible: false,
      reason: 'already_refunded',
      message: 'Este pedido fue reembolsado.',
    });

    const shared = await subscribe(unique('shared-why'));
    await (
      await getDb()
    )
      .update(locationRequests)
      .set({ firstSharedAt: new Date() })
      .where(eq(locationRequests.orderId, shared.order.id));
    const detail = await (
      await call('POST', '/admin/order/refundDetail', {
        body: { code: shared.code },
        headers: { cookie: shared.cookie, 'accept-language': 'id' },
      })
    ).json();
    expect(detail.obj).toMatchObject({ eligible: false, reason: 'service_performed' });
    expect(detail.obj.message).toMatch(/lokasi/i);
    const refused = await call('POST', '/admin/order/refund', {
      body: { code: shared.code },
      headers: { cookie: shared.cookie },
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ reason: 'service_performed' });
  });

  it('refused once a location was shared (the service was performed)', async () => {
    const { code, cookie, order } = await subscribe(unique('shared'));
    await (
      await getDb()
    )
      .update(locationRequests)
      .set({ firstSharedAt: new Date() })
      .where(eq(locationRequests.orderId, order.id));
    const res = await call('POST', '/admin/order/refund', { body: { code }, headers: { cookie } });
    expect(res.status).toBe(409);
    // Not a dead end: the refusal says what a withdrawal from the contract still gives back (services/billing/refunds.ts).
    expect((await res.json()).msg).toMatch(
      /^A location was already shared for this subscription, so it is not refunded on request\. You can still withdraw from the contract until .+ UTC: it ends at once and you get back /,
    );
  });

  it("another subscriber's order answers 404", async () => {
    const mine = await subscribe(unique('mine'));
    const theirs = await subscribe(unique('theirs'));
    const res = await call('POST', '/admin/order/refund', {
      body: { code: theirs.code },
      headers: { cookie: mine.cookie },
    });
    expect(res.status).toBe(404);
  });
});
