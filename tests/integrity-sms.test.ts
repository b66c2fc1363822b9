import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { locationRequests, orders, outboundMessages } from '@/server/db/schema';
import { deliverOutboxMessage, redactHandedOver } from '@/server/services/messaging';
import { call, latestEmail, uniqueEmail } from './support/accounts';
import { payCard, placeOrder, subscribe } from './support/billing';

// SMS caps hold where the SMS is queued, only SMS-capable numbers get one (docs/rules.md#sms), and no secret is kept
// past delivery (docs/rules.md#retention).
// This file runs with a cap of 3 SMS per number a day and /dev/outbox off (settings are read on first use).
vi.hoisted(() => {
  process.env.SMS_MAX_PER_TARGET_PER_DAY = '3';
  process.env.DEV_OUTBOX = 'off';
});

let counter = 0;
/** A fresh Spanish mobile number. */
const mobile = () => `+34622${String((Date.now() + ++counter * 7919) % 1_000_000).padStart(6, '0')}`;

describe('SMS caps hold where the SMS is queued', () => {
  it('20 orders for one number, created first and paid at once, send 3 SMS; the others are paid with "SMS not sent"', async () => {
    const phone = mobile();
    const placed = [];
    for (let i = 0; i < 20; i++) placed.push(await placeOrder({ email: uniqueEmail('cap'), phone }));
    expect(placed.every((p) => p.res.status === 201)).toBe(true);
    const paid = await Promise.all(placed.map((p) => payCard(p.body.obj.code, '4242424242424242')));
    expect(paid.every((r) => r.status === 200)).toBe(true);
    const db = await getDb();
    const sms = await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, phone));
    expect(sms).toHaveLength(20);
    expect(sms.filter((m) => m.status === 'queued')).toHaveLength(3);
    const refused = sms.filter((m) => m.status === 'failed');
    expect(refused).toHaveLength(17);
    expect(refused.every((m) => m.lastError === 'refused: target_daily' && !/\?c=[A-Za-z0-9_-]{22}/.test(m.body))).toBe(
      true,
    );
    // Each refused order says so: its status page and its e-mail tell the buyer to share the link themselves.
    const views = await Promise.all(
      placed.map(async (p) => (await (await call('GET', `/portal/user/checkRegister/${p.body.obj.code}`)).json()).obj),
    );
    expect(views.filter((v) => v.smsStatus === 'failed')).toHaveLength(17);
    const refusedOrder = placed[views.findIndex((v) => v.smsStatus === 'failed')];
    const mail = await latestEmail(refusedOrder.body.obj.email);
    expect(mail.body).toContain('We could not send the consent SMS');
  });

  it('a buyer whose SMS was refused gets a working consent link to send themselves', async () => {
    const phone = mobile();
    const db = await getDb();
    // The cap fills up between the order and its payment.
    const { order, cookie } = await subscribeFor(phone, () =>
      db
        .insert(outboundMessages)
        .values(Array.from({ length: 3 }, () => ({ channel: 'sms' as const, recipient: phone, body: 'x' }))),
    );
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    const renewed = await call('POST', `/spyContent/phoneLocation/${request.id}/link`, { headers: { cookie } });
    const { obj } = await renewed.json();
    expect(obj.smsQueued).toBe(false);
    const code = new URL(obj.link).searchParams.get('c')!;
    expect((await call('GET', `/spyContent/consent/${code}`)).status).toBe(200);
    // Trying the SMS again meets the same cap.
    const again = await call('POST', `/spyContent/phoneLocation/${request.id}/link`, {
      body: { send: true },
      headers: { cookie },
    });
    expect(again.status).toBe(429);
  });

  it.each([
    ['US premium rate', '+1 900 555 1234'],
    ['UK premium rate', '+44 909 879 0000'],
    ['Iridium satellite', '+881 6 1234 5678'],
    ['international network', '+882 1234 5678'],
    ['Swiss landline', '+41 44 668 18 00'],
  ])('refuses a %s number before payment, with a clear error', async (_name, phone) => {
    const { res, body } = await placeOrder({ email: uniqueEmail('premium'), phone });
    expect(res.status).toBe(422);
    expect(body.msg).toMatch(/cannot receive our SMS/);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(orders)
        .where(eq(orders.email, body.email ?? '')),
    ).toHaveLength(0);
  });
});

async function subscribeFor(phone: string, beforePay: () => Promise<unknown>) {
  const { body } = await placeOrder({ email: uniqueEmail('renew'), phone });
  await beforePay();
  const pay = await payCard(body.obj.code, '4242424242424242');
  expect(pay.status).toBe(200);
  const [order] = await (await getDb()).select().from(orders).where(eq(orders.code, body.obj.code));
  const token = /(?:^|, )token=([^;]+)/.exec(pay.headers.get('set-cookie') ?? '')![1];
  return { order, cookie: `token=${token}` };
}

describe('secrets at rest', () => {
  it('the request keeps the SMS text without the code', async () => {
    const { order } = await subscribe(uniqueEmail('masked'));
    const [request] = await (
      await getDb()
    )
      .select()
      .from(locationRequests)
      .where(eq(locationRequests.orderId, order.id));
    expect(request.smsText).toContain('?c=[code]');
  });

  it('passwords, codes and links are removed from the outbox once handed to a provider', async () => {
    const email = uniqueEmail('secrets');
    const { order } = await subscribe(email);
    await call('GET', `/admin/userSession/forgetPassword/${email}`);
    await call('POST', '/portal/cancel/request', { body: { email } });
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, order.id));
    const rows = await db
      .select()
      .from(outboundMessages)
      .where(inArray(outboundMessages.recipient, [email, request.targetE164]));
    const mine = rows.filter((r) => r.recipient === email || r.locationRequestId === request.id);
    expect(mine.map((r) => r.template ?? 'sms').sort()).toEqual(
      ['cancel-link', 'order-credentials', 'reset-code', 'sms'].sort(),
    );
    const sent: string[] = [];
    const provider = {
      name: 'twilio',
      send: async (m: { body?: string; text?: string }) => (sent.push(m.body ?? m.text ?? ''), 'SM1'),
    };
    for (const row of mine) {
      await deliverOutboxMessage(db, row.id, {
        email: { name: 'smtp', send: async (m) => (sent.push(m.text), 'id') },
        sms: provider,
      });
    }
    // What was handed over had the secrets; what is kept has not.
    expect(sent.join('\n')).toMatch(/Temporary password: \S{16}/);
    const after = await db
      .select()
      .from(outboundMessages)
      .where(
        inArray(
          outboundMessages.id,
          mine.map((r) => r.id),
        ),
      );
    for (const row of after) {
      expect(row.body).not.toMatch(/Temporary password: (?!\[removed\])/);
      expect(row.body).not.toMatch(/\?c=[A-Za-z0-9_-]{22}/);
      expect(row.body).not.toMatch(/token=[\w-]{20,}/);
      expect(row.body).not.toMatch(/Your code is \d{6}/);
      expect(`${row.html ?? ''}`).not.toMatch(/token=[\w-]{20,}|Your code is \d{6}/);
      expect(row.redacted).toBeNull();
      expect(row.redactedAt).not.toBeNull();
    }
  });

  it('the demo outbox keeps secrets only while /dev/outbox is on', async () => {
    const email = uniqueEmail('demo');
    await subscribe(email);
    const db = await getDb();
    const mail = await latestEmail(email);
    await deliverOutboxMessage(db, mail.id);
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, mail.id));
    expect(row.provider).toBe('outbox');
    expect(row.body).toContain('Temporary password: [removed]');
    expect(await redactHandedOver(db)).toBeGreaterThanOrEqual(0);
  });
});
