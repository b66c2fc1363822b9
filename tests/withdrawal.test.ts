import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { locationRequests, orders, payments, refunds, subscriptions, withdrawals } from '@/server/db/schema';
import {
  refundCheck,
  refusalMessage,
  runBillingCycle,
  transition,
  withdraw,
  WITHDRAWAL_DAYS,
  withdrawalContracts,
  withdrawalQuote,
  withdrawKey,
  withdrawLinkState,
} from '@/server/services/billing';
import { emailDateTime } from '@/server/services/messaging';
import { call, tokenOf, uniqueEmail } from './support/accounts';
import { emailsTo, payCard, placeOrder, subscriptionById } from './support/billing';

// The withdrawal function (Directive 2011/83/EU Art. 11a): docs/features.md "Payments and subscriptions".

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/**
 * Buys a trial (4242…) as the pay step does, with the express request to start at once; the order, subscription,
 * cookie. `startNow = false` models an order placed before that request was required (orders.start_now false): the
 * rule still gives such an order everything back.
 */
async function buy(tag: string, startNow = false) {
  const email = uniqueEmail(tag);
  const { body } = await placeOrder({ email });
  const pay = await payCard(body.obj.code, '4242424242424242');
  expect(pay.status).toBe(200);
  const db = await getDb();
  if (!startNow) await db.update(orders).set({ startNow: false }).where(eq(orders.code, body.obj.code));
  const [order] = await db.select().from(orders).where(eq(orders.code, body.obj.code));
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.orderId, order.id));
  return { email, order, sub, cookie: `token=${tokenOf(pay)}` };
}

/** The owner shares: the request the payment made gets its first position now. */
async function share(orderId: string) {
  await (
    await getDb()
  )
    .update(locationRequests)
    .set({ firstSharedAt: new Date() })
    .where(eq(locationRequests.orderId, orderId));
}

async function refundsOf(orderId: string) {
  return (await getDb()).select().from(refunds).where(eq(refunds.orderId, orderId));
}
async function withdrawalsOf(orderId: string) {
  return (await getDb()).select().from(withdrawals).where(eq(withdrawals.orderId, orderId));
}
async function chargesOf(orderId: string) {
  return (await getDb())
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .then((rows) => rows.filter((p) => p.status === 'succeeded'));
}
const meta = { ip: '203.0.113.9', userAgent: 'vitest', timeZone: 'Europe/Madrid' };

describe('the refund rule (pure, any clock)', () => {
  const paidAt = new Date('2026-07-01T10:00:00Z');
  const base = {
    paidAt,
    startNow: true,
    shared: true,
    charges: [{ amountMinor: 99, at: paidAt }],
    currentPeriodEnd: new Date(paidAt.getTime() + DAY),
    ended: false,
  };

  it('within 14 days without a share: everything paid, trial and renewals', () => {
    const q = withdrawalQuote({
      ...base,
      shared: false,
      now: new Date(paidAt.getTime() + 3 * DAY),
      charges: [...base.charges, { amountMinor: 4999, at: new Date(paidAt.getTime() + DAY) }],
    });
    expect(q).toMatchObject({ withinPeriod: true, rule: 'full', paidMinor: 5098, refundMinor: 5098 });
  });

  it('a share without the request to start at once is still a full refund', () => {
    const q = withdrawalQuote({ ...base, startNow: false, now: new Date(paidAt.getTime() + HOUR) });
    expect(q).toMatchObject({ rule: 'full', refundMinor: 99 });
  });

  it('shared and started at once: the unused part of the current period, rounded up for the buyer', () => {
    // 18 of 24 hours left: 99 × 18 / 24 = 74.25 → 75.
    expect(withdrawalQuote({ ...base, now: new Date(paidAt.getTime() + 6 * HOUR) }).refundMinor).toBe(75);
    // Exactly divisible stays exact: 96 × 12 / 24 = 48.
    const even = { ...base, charges: [{ amountMinor: 96, at: paidAt }] };
    expect(withdrawalQuote({ ...even, now: new Date(paidAt.getTime() + 12 * HOUR) }).refundMinor).toBe(48);
    // The period is over or the subscription ended: nothing.
    expect(withdrawalQuote({ ...base, now: new Date(paidAt.getTime() + 25 * HOUR) }).refundMinor).toBe(0);
    expect(withdrawalQuote({ ...base, ended: true, now: new Date(paidAt.getTime() + HOUR) }).refundMinor).toBe(0);
  });

  it('after 14 days: no withdrawal, nothing refunded', () => {
    const q = withdrawalQuote({ ...base, shared: false, now: new Date(paidAt.getTime() + WITHDRAWAL_DAYS * DAY + 1) });
    expect(q).toMatchObject({ withinPeriod: false, refundMinor: 0 });
    expect(q.deadline.toISOString()).toBe('2026-07-15T10:00:00.000Z');
  });

  it('the machine: `withdrawn` ends a live subscription at once, and does nothing to an ended one', () => {
    const state = {
      status: 'active' as const,
      currentPeriodEnd: new Date('2026-08-01T00:00:00Z'),
      cancelAt: null,
      canceledAt: null,
      nextRetryAt: null,
    };
    const at = new Date('2026-07-05T00:00:00Z');
    const ended = transition(state, { type: 'withdrawn', at });
    expect(ended).toMatchObject({ status: 'canceled', canceledAt: at });
    expect(transition(ended!, { type: 'withdrawn', at })).toBeNull();
  });
});

describe('withdrawing with time travel (services/billing/withdrawals.ts)', () => {
  it('within 14 days, nothing shared: the trial payment back in full, the subscription ended, an acknowledgement', async () => {
    const { email, order, sub } = await buy('wd-full', true);
    const db = await getDb();
    const now = new Date(order.paidAt!.getTime() + 2 * HOUR);
    const result = await withdraw(db, { userId: order.userId!, code: order.code, now, ...meta });
    expect(result.repeated).toBe(false);
    expect(result.withdrawal).toMatchObject({
      rule: 'full',
      paidMinor: order.amountMinor,
      refundMinor: order.amountMinor,
      via: 'account',
      ip: '203.0.113.9',
      userAgent: 'vitest',
      timeZone: 'Europe/Madrid',
    });
    const [refund] = await refundsOf(order.id);
    expect(refund.amountMinor).toBe(order.amountMinor);
    expect(refund.providerRef).toMatch(/^sbx_re_/);
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
    const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(after.status).toBe('refunded');
    const [ack] = await emailsTo(email, 'withdrawal-confirmed');
    expect(ack.body).toContain(order.reference);
    expect(ack.body).toMatch(/UTC/);
    expect(ack.body).toContain('(Europe/Madrid)');
    expect(ack.body).toMatch(/Refund: (US)?\$0\.\d\d, to the card/);
    // The record is append-only.
    await expect(
      db.execute(sql`update withdrawals set refund_minor = 0 where order_id = ${order.id}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from withdrawals where order_id = ${order.id}`)).rejects.toThrow();
  });

  it('a month renewed within the 14 days is refunded with the trial', async () => {
    const { order, sub } = await buy('wd-renewed');
    await share(order.id); // shared, but no request to start at once: still a full refund
    const db = await getDb();
    await runBillingCycle(db, new Date(sub.currentPeriodEnd.getTime() + 60_000));
    expect((await subscriptionById(sub.id)).status).toBe('active');
    const charged = (await chargesOf(order.id)).reduce((s, p) => s + p.amountMinor, 0);
    const now = new Date(order.paidAt!.getTime() + 10 * DAY);
    const result = await withdraw(db, { userId: order.userId!, code: order.code, now, ...meta });
    expect(result.withdrawal).toMatchObject({ rule: 'full', paidMinor: charged, refundMinor: charged });
    expect(charged).toBe(order.amountMinor + 4999);
  });

  it('shared after asking to start at once: the unused part of the current period (pro rata)', async () => {
    const { order, sub } = await buy('wd-prorata', true);
    await share(order.id);
    const db = await getDb();
    const [charge] = await chargesOf(order.id);
    const now = new Date(order.paidAt!.getTime() + 6 * HOUR);
    const [contract] = await withdrawalContracts(db, order.userId!, 'en', now);
    const span = sub.currentPeriodEnd.getTime() - charge.createdAt.getTime();
    const left = sub.currentPeriodEnd.getTime() - now.getTime();
    const expected = Math.ceil((charge.amountMinor * left) / span);
    expect(contract).toMatchObject({ state: 'open', rule: 'pro_rata', refundMinor: expected });
    const result = await withdraw(db, { userId: order.userId!, code: order.code, now, ...meta });
    expect(result.withdrawal).toMatchObject({ rule: 'pro_rata', refundMinor: expected });
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(order.amountMinor);
    expect((await refundsOf(order.id))[0].amountMinor).toBe(expected);
    expect((await subscriptionById(sub.id)).status).toBe('canceled');
  });

  it('after 14 days: refused with the cancel offer; the link still exists', async () => {
    const { email, order, cookie } = await buy('wd-late');
    const db = await getDb();
    const now = new Date(order.paidAt!.getTime() + WITHDRAWAL_DAYS * DAY + HOUR);
    const [contract] = await withdrawalContracts(db, order.userId!, 'es', now);
    expect(contract.state).toBe('period_ended');
    await expect(withdraw(db, { userId: order.userId!, code: order.code, now, ...meta })).rejects.toMatchObject({
      kind: 'conflict',
      messageKey: 'Api.withdrawPeriodEnded',
    });
    expect(await refundsOf(order.id)).toHaveLength(0);
    expect(await withdrawalsOf(order.id)).toHaveLength(0);
    // The withdrawal page still answers for this buyer (the e-mail link is sent whatever the date).
    await call('POST', '/portal/withdraw/request', { body: { email } });
    expect(await emailsTo(email, 'withdraw-link')).toHaveLength(1);
    const view = await (await call('GET', '/admin/withdraw/contracts', { headers: { cookie } })).json();
    expect(view.obj.contracts[0]).toMatchObject({ code: order.code, state: 'open' }); // today it is still open
  });

  it('two withdrawals at once (20 requests): one refund, one record', async () => {
    const { order, cookie } = await buy('wd-twice');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', '/admin/withdraw/confirm', {
          body: { code: order.code, timeZone: 'Asia/Jakarta' },
          headers: { cookie },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.filter((b) => !b.obj.repeated)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.obj.at)).size).toBe(1);
    expect(bodies[0].obj.atLocal).toContain('(Asia/Jakarta)');
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await withdrawalsOf(order.id)).toHaveLength(1);
    expect(withdrawKey(order.code)).toBe(`withdraw-${order.code}`);
  });

  it('a withdrawal racing the renewal charge (20 fresh subscriptions): never a new charge left unrefunded', async () => {
    const db = await getDb();
    for (let i = 0; i < 20; i++) {
      const { order, sub } = await buy(`wd-race-${i}`);
      await share(order.id); // so the trial converts instead of being refunded as unconsented
      const at = new Date(sub.currentPeriodEnd.getTime() + 60_000);
      const [, withdrawn] = await Promise.all([
        runBillingCycle(db, at),
        withdraw(db, { userId: order.userId!, code: order.code, now: at, ...meta }),
      ]);
      const charged = (await chargesOf(order.id)).reduce((s, p) => s + p.amountMinor, 0);
      const [refund] = await refundsOf(order.id);
      // Whatever ran first, everything charged was refunded (a charge after the withdrawal would be unrefunded).
      expect(refund.amountMinor).toBe(charged);
      expect(withdrawn.withdrawal.refundMinor).toBe(charged);
      expect((await subscriptionById(sub.id)).status).toBe('canceled');
      // And no later run charges it again.
      await runBillingCycle(db, new Date(at.getTime() + 40 * DAY));
      expect((await chargesOf(order.id)).reduce((s, p) => s + p.amountMinor, 0)).toBe(charged);
    }
  });
});

describe('/withdraw without signing in: the e-mailed single-use link', () => {
  it('same answer for unknown addresses; the link names the contract, withdraws once, then reads as used', async () => {
    const { email, order } = await buy('wd-link');
    const unknown = await call('POST', '/portal/withdraw/request', { body: { email: uniqueEmail('nobody') } });
    const known = await call('POST', '/portal/withdraw/request', { body: { email, locale: 'es' } });
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    const [mail] = await emailsTo(email, 'withdraw-link');
    const token = /\/es\/withdraw\/\?token=([\w-]+)/.exec(mail.body)![1];

    const before = await (await call('GET', `/portal/withdraw/link/${token}`)).json();
    expect(before.obj.state).toBe('usable');
    expect(before.obj.contracts[0]).toMatchObject({
      code: order.code,
      reference: order.reference,
      state: 'open',
      rule: 'full',
      refundMinor: order.amountMinor,
    });

    // Ten confirmations of one link at once: one withdraws, the others find the link used.
    const tries = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/portal/withdraw/confirm', { body: { token, code: order.code, timeZone: 'Nowhere/Else' } }),
      ),
    );
    expect(tries.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(410)]);
    const ok = await tries.find((r) => r.status === 200)!.json();
    expect(ok.obj).toMatchObject({ reference: order.reference, atLocal: null, refundMinor: order.amountMinor });
    const reused = await call('POST', '/portal/withdraw/confirm', { body: { token, code: order.code } });
    expect(reused.status).toBe(410);
    // The link has ended: it says when the withdrawal was completed, nothing of the order or the number located.
    const [record] = await withdrawalsOf(order.id);
    expect(record).toMatchObject({ via: 'email_link', timeZone: null });
    const after = await call('GET', `/portal/withdraw/link/${token}`);
    const text = await after.text();
    expect(JSON.parse(text).obj).toEqual({
      state: 'used',
      contracts: [],
      completedAt: record.withdrawnAt.toISOString(),
    });
    for (const secret of [order.code, order.reference, order.phoneE164, order.phoneE164.slice(1), email]) {
      expect(text).not.toContain(secret);
    }
    const bogus = await (await call('GET', `/portal/withdraw/link/${'x'.repeat(43)}`)).json();
    expect(bogus.obj).toEqual({ state: 'unknown', contracts: [], completedAt: null });
  });

  it('a used link still shows only the completion date 39 days later, in the service as in the route', async () => {
    const { email, order } = await buy('wd-link-later');
    await call('POST', '/portal/withdraw/request', { body: { email } });
    const [mail] = await emailsTo(email, 'withdraw-link');
    const token = /\/withdraw\/\?token=([\w-]+)/.exec(mail.body)![1];
    const done = await call('POST', '/portal/withdraw/confirm', { body: { token, code: order.code } });
    expect(done.status).toBe(200);
    // Right after confirming, the answer is the acknowledgement the page keeps on screen.
    expect((await done.json()).obj).toMatchObject({ reference: order.reference, repeated: false });
    const [record] = await withdrawalsOf(order.id);
    const later = await withdrawLinkState(await getDb(), token, 'en', new Date(Date.now() + 39 * DAY));
    expect(later).toEqual({ state: 'used', contracts: [], completedAt: record.withdrawnAt.toISOString() });
    const again = await call('POST', '/portal/withdraw/confirm', { body: { token, code: order.code } });
    expect(again.status).toBe(410);
  });

  it('a refused withdrawal leaves the link usable; another buyer’s order is 404', async () => {
    const mine = await buy('wd-mine');
    const theirs = await buy('wd-theirs');
    await call('POST', '/portal/withdraw/request', { body: { email: mine.email } });
    const [mail] = await emailsTo(mine.email, 'withdraw-link');
    const token = /\/withdraw\/\?token=([\w-]+)/.exec(mail.body)![1];
    const foreign = await call('POST', '/portal/withdraw/confirm', { body: { token, code: theirs.order.code } });
    expect(foreign.status).toBe(404);
    const state = await (await call('GET', `/portal/withdraw/link/${token}`)).json();
    expect(state.obj.state).toBe('usable');
  });

  it('every order e-mail carries "Withdraw from contract here"', async () => {
    const { email } = await buy('wd-order-mail');
    const [mail] = await emailsTo(email, 'order-credentials');
    expect(mail.body).toMatch(/Withdraw from contract here: http:\/\/[^\s]+\/withdraw\//);
  });
});

describe('Billing: a refused refund and the withdrawal say the same (services/billing/contract-quote.ts)', () => {
  const detail = async (code: string, cookie: string) =>
    (await (await call('POST', '/admin/order/refundDetail', { body: { code }, headers: { cookie } })).json()).obj;
  const billing = async (cookie: string) =>
    (await (await call('GET', '/admin/order/status', { headers: { cookie } })).json()).obj;

  it('shared after asking to start at once: the refusal names the pro-rata refund a withdrawal gives, and its date', async () => {
    const { order, cookie } = await buy('wd-refusal-prorata', true);
    await share(order.id);
    const db = await getDb();
    // One clock for both: the refusal's amount is the withdrawal's quote, to the minor unit.
    const now = new Date(order.paidAt!.getTime() + 6 * HOUR);
    const [contract] = await withdrawalContracts(db, order.userId!, 'en', now);
    expect(contract).toMatchObject({ state: 'open', rule: 'pro_rata' });
    const check = await refundCheck(db, order, now);
    expect(check).toMatchObject({ reason: 'service_performed', withdrawal: { rule: 'pro_rata' } });
    expect(check.withdrawal!.refundMinor).toBe(contract.refundMinor);
    const text = refusalMessage('en', check);
    expect(text).toMatch(/^A location was already shared for this subscription/);
    expect(text).toContain(
      `You can still withdraw from the contract until ${emailDateTime(new Date(contract.deadline), 'en')}`,
    );
    expect(text).toContain(`you get back ${contract.refund} of the ${contract.paid} you paid`);
    // Through the API (the real clock): the page shows that message; the refund call refuses with the same words.
    const info = await detail(order.code, cookie);
    expect(info).toMatchObject({ eligible: false, reason: 'service_performed' });
    expect(info.message).toMatch(
      /You can still withdraw from the contract until .+: it ends at once and you get back US\$0\.\d\d of the US\$0\.99 you paid/,
    );
    const refused = await call('POST', '/admin/order/refund', { body: { code: order.code }, headers: { cookie } });
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.reason).toBe('service_performed');
    expect(body.msg).toMatch(/You can still withdraw from the contract until/);
  });

  it('an older order (no request to start at once): the refusal offers everything back, as the withdrawal does', async () => {
    const { order, cookie } = await buy('wd-refusal-full');
    await share(order.id);
    const info = await detail(order.code, cookie);
    expect(info).toMatchObject({ eligible: false, reason: 'service_performed' });
    expect(info.message).toContain('you get back everything you paid, US$0.99');
    const [contract] = await withdrawalContracts(await getDb(), order.userId!, 'en', new Date());
    expect(contract).toMatchObject({ rule: 'full', refund: 'US$0.99' });
  });

  it('after a withdrawal Billing says "Withdrawn — refunded …" and no longer offers to withdraw', async () => {
    const { order, cookie } = await buy('wd-billing', true);
    await share(order.id);
    const before = (await billing(cookie)).orders.find((o: { code: string }) => o.code === order.code);
    expect(before).toMatchObject({ withdrawable: true, withdrawn: null });
    const done = await call('POST', '/admin/withdraw/confirm', { body: { code: order.code }, headers: { cookie } });
    expect(done.status).toBe(200);
    const ack = (await done.json()).obj;
    const after = (await billing(cookie)).orders.find((o: { code: string }) => o.code === order.code);
    expect(after).toMatchObject({
      status: 'refunded',
      refundReason: 'withdrawal',
      withdrawable: false,
      withdrawn: { refund: ack.refund, refundMinor: ack.refundMinor },
    });
    expect(ack).toMatchObject({ rule: 'pro_rata' });
    expect(ack.refundMinor).toBeGreaterThan(0);
  });

  it('a withdrawal that refunded nothing: the refund is refused as withdrawn, not offered again', async () => {
    const { order } = await buy('wd-nothing-left', true);
    await share(order.id);
    const db = await getDb();
    // The trial's day has passed (not renewed here): a pro-rata withdrawal refunds nothing and the order stays paid.
    const now = new Date(order.paidAt!.getTime() + 25 * HOUR);
    const result = await withdraw(db, { userId: order.userId!, code: order.code, now, ...meta });
    expect(result.withdrawal).toMatchObject({ rule: 'pro_rata', refundMinor: 0 });
    const [paid] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid.status).toBe('paid');
    const check = await refundCheck(db, paid, now);
    expect(check.reason).toBe('withdrawn');
    expect(refusalMessage('en', check)).toBe(
      'You withdrew from this contract: the withdrawal made its refund, so there is nothing more to refund.',
    );
    const [contract] = await withdrawalContracts(db, order.userId!, 'en', now);
    expect(contract).toMatchObject({ state: 'withdrawn', withdrawal: { refundMinor: 0 } });
  });
});
