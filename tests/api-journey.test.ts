import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, orders, outboundMessages, positions, sessions, users } from '@/server/db/schema';
import { deliverOutboxMessage } from '@/server/services/messaging';
import { consentSmsSent } from '@/server/services/locate';
import { sha256 } from '@/server/services/tokens';
import { API, app, clientHeaders, form } from './support/api';
import { nextIp } from './support/accounts';

const formHeaders = { ...clientHeaders, 'content-type': 'application/x-www-form-urlencoded' };
const card = (cardNumber: string) => ({ cardNumber, expiry: '12/34', cvc: '123', zip: '94107' });

async function createOrder(email: string, phone = '+14155552671') {
  const res = await app.request(`${API}/portal/order`, {
    method: 'POST',
    headers: { ...formHeaders, 'x-peer-ip': nextIp() },
    body: form({ email, phone, requesterName: 'Anna (your sister)', terms: true, startNow: true }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).obj as {
    code: string;
    reference: string;
    amountMinor: number;
    currency: string;
    status: string;
  };
}

async function pay(code: string, cardNumber: string) {
  return app.request(`${API}/portal/order/${code}/sandboxPay`, {
    method: 'POST',
    headers: formHeaders,
    body: form(card(cardNumber)),
  });
}

function tokenFrom(res: Response): string {
  const token = /token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/** Pays an order and returns the session token and the consent code read from the stored SMS. */
async function buy(email: string, phone = '+14155552671') {
  const order = await createOrder(email, phone);
  const res = await pay(order.code, '4242 4242 4242 4242');
  expect(res.status).toBe(200);
  const token = tokenFrom(res);
  const db = await getDb();
  const [{ requestId }] = await db
    .select({ requestId: locationRequests.id })
    .from(locationRequests)
    .innerJoin(orders, eq(orders.id, locationRequests.orderId))
    .where(eq(orders.code, order.code));
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
  const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
  return { token, code, requestId, order };
}

describe('the journey through the API', () => {
  it('prices orders from price_setups, ignoring a client-sent price', async () => {
    const res = await app.request(`${API}/portal/order`, {
      method: 'POST',
      headers: formHeaders,
      body: form({
        email: 'price@example.com',
        phone: '+14155552671',
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
        amountMinor: 1,
        price: 0,
      }),
    });
    expect((await res.json()).obj).toMatchObject({
      amountMinor: 99,
      currency: 'USD',
      amount: 'US$0.99',
      monthlyAmount: 'US$49.99',
      status: 'pending',
    });
  });

  it('a declined card (0002) marks the order failed and creates no account, session or message', async () => {
    const email = 'declined@example.com';
    const order = await createOrder(email);
    const res = await pay(order.code, '4000 0000 0000 0002');
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({
      success: 0,
      msg: 'Transaction has been declined. Please contact your issuing bank to approve the payment or try again with another card',
      reason: 'card_declined',
    });
    expect(res.headers.get('set-cookie')).toBeNull();
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, email))).toHaveLength(0);
    const [row] = await db.select().from(orders).where(eq(orders.code, order.code));
    expect(row).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
  });

  it('a paid order creates the account, a hashed session, the request and both outbox rows in one go', async () => {
    const email = 'Buyer.One@Example.com';
    const { token, code, requestId, order } = await buy(email);
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, 'buyer.one@example.com'));
    expect(user.paymentCount).toBe(1);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const stored = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).toBe(sha256(token));
    expect(stored[0].tokenHash).not.toContain(token);
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
    expect(request).toMatchObject({ status: 'queued', targetE164: '+14155552671', consentCodeHash: sha256(code) });
    expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);
    const mails = await db
      .select()
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, 'buyer.one@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0].body).toMatch(/Temporary password: [A-Za-z0-9]{16}/);
    // The e-mail names the order by its short reference; the long random code stays out of it.
    expect(mails[0].body).toContain(order.reference);
    expect(mails[0].body).not.toContain(order.code);

    const status = await app.request(`${API}/portal/user/checkRegister/${order.code}`);
    expect((await status.json()).obj.status).toBe('paid');
    const again = await pay(order.code, '4242424242424242');
    expect(again.status).toBe(409);
  });

  it('delivering the SMS outbox row moves the request to sms_sent, once', async () => {
    const { requestId } = await buy('outbox@example.com', '+639171234567');
    const db = await getDb();
    const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
    expect(sms.body.length).toBeLessThanOrEqual(160);
    expect(sms.body).toContain('/ph/location/?c=');
    // The job worker hands locate's step to the outbox (server/jobs/outbox-workers.ts), as here.
    expect(await deliverOutboxMessage(db, sms.id, { smsSent: consentSmsSent })).toBe('sent');
    expect(await deliverOutboxMessage(db, sms.id, { smsSent: consentSmsSent })).toBe('sent');
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, sms.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider: 'outbox' });
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
    expect(request.status).toBe('sms_sent');
  });

  it('no position is accepted before Share; Share records consent and the IP location; the owner map shows GPS', async () => {
    const { token, code, requestId } = await buy('sharer@example.com');
    const put = (body: Record<string, string | number>, extra: Record<string, string> = {}) =>
      app.request(`${API}/spyContent/phoneLocation/${code}`, {
        method: 'PUT',
        headers: { ...formHeaders, ...extra },
        body: form(body),
      });

    const early = await put({ action: 'position', latitude: 1, longitude: 2, accuracy: 5 });
    expect(early.status).toBe(409);

    const view = await app.request(`${API}/spyContent/consent/${code}`);
    expect((await view.json()).obj).toMatchObject({
      requester: 's•••@example.com',
      status: 'opened',
      presets: [15, 60, 480],
    });

    const share = await put(
      { action: 'share', minutes: 60, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
      { 'x-peer-ip': '81.2.69.142', 'user-agent': 'OwnerPhone/1.0' },
    );
    expect((await share.json()).obj).toEqual({ status: 'sharing' });
    const db = await getDb();
    const [consent] = await db.select().from(consents).where(eq(consents.requestId, requestId));
    expect(consent).toMatchObject({
      decision: 'shared',
      ip: '81.2.69.142',
      userAgent: 'OwnerPhone/1.0',
      durationMinutes: 60,
    });
    expect(consent.textHash).toMatch(/^[0-9a-f]{64}$/);

    const bad = await put({ action: 'position', latitude: 123, longitude: 2, accuracy: 5 });
    expect(bad.status).toBe(422);
    expect((await bad.json()).msg).toBe('The position is not valid');
    const ok = await put({ action: 'position', latitude: 40.4168, longitude: -3.7038, accuracy: 8.5 });
    expect(ok.status).toBe(200);

    const trace = await app.request(`${API}/gpsTrace/phoneLocation/${requestId}`, {
      headers: { cookie: `token=${token}` },
    });
    const { obj } = await trace.json();
    expect(obj.status).toBe('sharing');
    expect(obj.positions[0]).toMatchObject({ source: 'gps', latitude: 40.4168, longitude: -3.7038, accuracy: 8.5 });
    // The share carried the first fix; the IP area was stored with it, in the same transaction.
    expect(obj.positions.map((p: { source: string }) => p.source).sort()).toEqual(['gps', 'gps', 'ip']);
    expect(obj.positions.find((p: { source: string }) => p.source === 'ip')).toMatchObject({
      label: 'London, England, GB',
    });
    expect(obj.positions.find((p: { latitude: number }) => p.latitude === 48.8584)).toMatchObject({
      source: 'gps',
      accuracy: 12,
    });
    // The newest fix is in central Madrid: the buyer's map names the nearest place from the offline gazetteer.
    expect(obj.place).toMatchObject({ region: 'Madrid', country: 'ES' });
    expect(obj.place.distanceM).toBeLessThan(2000);

    const stop = await put({ action: 'stop' });
    expect((await stop.json()).obj).toEqual({ status: 'stopped' });
    expect((await put({ action: 'position', latitude: 1, longitude: 1, accuracy: 1 })).status).toBe(409);
  });

  it('Decline stores no position and cannot be turned into a position later', async () => {
    const { code, requestId } = await buy('decliner@example.com', '+14155552690');
    const res = await app.request(`${API}/spyContent/phoneLocation/${code}`, {
      method: 'PUT',
      headers: { ...formHeaders, 'x-peer-ip': '8.8.8.8' },
      body: form({ action: 'decline' }),
    });
    expect((await res.json()).obj).toEqual({ status: 'declined' });
    const db = await getDb();
    expect(await db.select().from(positions).where(eq(positions.requestId, requestId))).toHaveLength(0);
    const [consent] = await db.select().from(consents).where(eq(consents.requestId, requestId));
    expect(consent.decision).toBe('declined');
  });

  it("another user's request answers 404, and no session answers 401 with code 20012", async () => {
    const alice = await buy('alice@example.com');
    const bob = await buy('bob@example.com');
    const foreign = await app.request(`${API}/gpsTrace/phoneLocation/${alice.requestId}`, {
      headers: { cookie: `token=${bob.token}` },
    });
    expect(foreign.status).toBe(404);
    const viaHeader = await app.request(`${API}/gpsTrace/phoneLocation/${alice.requestId}`, {
      headers: { _chamspy_token: alice.token },
    });
    expect(viaHeader.status).toBe(200);
    const anonymous = await app.request(`${API}/gpsTrace/phoneLocation/${alice.requestId}`, {
      headers: { 'accept-language': 'es' },
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      success: 0,
      code: 20012,
      msg: 'No has iniciado sesión, por favor inicia sesión',
      reason: 'no_session',
    });
    const dead = await app.request(`${API}/spyContent`, { headers: { cookie: 'token=forged' } });
    // A token that is no longer valid: the page says the session ended.
    expect(await dead.json()).toMatchObject({
      msg: 'The login status is invalid, please log in to your account.',
      reason: 'session_ended',
    });
    const list = await app.request(`${API}/spyContent?pageNum=1&pageSize=10`, {
      headers: { cookie: `token=${bob.token}` },
    });
    const { page } = await list.json();
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ id: bob.requestId, phone: '+14155552671', positions: 0 });
  });

  it("lists only the caller's own orders and subscriptions", async () => {
    const carol = await buy('carol@example.com');
    await buy('dave@example.com');
    const res = await app.request(`${API}/admin/order/status`, { headers: { cookie: `token=${carol.token}` } });
    const { obj } = await res.json();
    expect(obj.orders).toHaveLength(1);
    expect(obj.orders[0]).toMatchObject({ code: carol.order.code, status: 'paid', amount: 'US$0.99', amountMinor: 99 });
    expect(obj.subscriptions).toEqual([expect.objectContaining({ status: 'trialing', cancelAt: null })]);
    const anonymous = await app.request(`${API}/admin/order/status`);
    expect(anonymous.status).toBe(401);
  });

  it('an unknown consent code answers 404', async () => {
    const res = await app.request(`${API}/spyContent/consent/${'x'.repeat(22)}`);
    expect(res.status).toBe(404);
  });
});
