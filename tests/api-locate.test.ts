import { and, count, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, outboundMessages, positions } from '@/server/db/schema';
import { runLocateMaintenance } from '@/server/services/locate';
import { eraseShared } from '@/server/services/safety';
import type { E164 } from '@/lib/contracts/phone';
import { buyAccount, call, latestEmail, nextIp } from './support/accounts';

afterEach(() => vi.useRealTimers());

/** The consent code in the newest SMS of request `requestId`. */
async function codeOf(requestId: string): Promise<string> {
  const db = await getDb();
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
  return /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1];
}

async function newRequest(token: string, phone: string, extra: Record<string, string> = {}) {
  return call('POST', '/spyContent/phoneLocation', {
    body: { phone, requesterName: 'Anna (your sister)', ...extra },
    headers: { cookie: `token=${token}` },
  });
}

let phoneCounter = 0;
/** A different valid Spanish mobile number per call (the SMS caps count per target). */
function freshPhone(): string {
  phoneCounter += 1;
  return `+3461${String(Date.now() % 100000).padStart(5, '0')}${String(phoneCounter % 100).padStart(2, '0')}`;
}

describe('location requests by subscribers', () => {
  it('creates a request with the chosen SMS text and counts it against the quota', async () => {
    const buyer = await buyAccount(`req.${Date.now()}@example.com`);
    const phone = freshPhone();
    const res = await newRequest(buyer.token, phone, { text: 'standard' });
    expect(res.status).toBe(201);
    const { obj } = await res.json();
    expect(obj.link).toMatch(/^http:\/\/localhost:3000\/es\/location\/\?c=[A-Za-z0-9_-]{22}$/);
    expect(obj.link).toBe(`http://localhost:3000/es/location/?c=${await codeOf(obj.id)}`);
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, obj.id));
    expect(request).toMatchObject({ targetE164: phone, status: 'queued', locale: 'es' });
    expect(request.smsText).toMatch(/^«Anna \(your sister\)» pide la ubicación de este teléfono a través de Chamspy/);
    const list = await (await call('GET', '/spyContent', { headers: { cookie: `token=${buyer.token}` } })).json();
    expect(list.page.quota).toEqual({ used: 2, total: 30 });
  });

  it('writes the SMS in the language the buyer picks instead of the number country', async () => {
    const buyer = await buyAccount(`lang.${Date.now()}@example.com`);
    const { obj } = await (await newRequest(buyer.token, freshPhone(), { locale: 'id' })).json();
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, obj.id));
    expect(request.locale).toBe('id');
    expect(request.smsText).toContain('"Anna (your sister)" meminta lokasi ponsel ini melalui Chamspy');
    expect(obj.link).toContain('/id/location/?c=');
  });

  it('takes a national number with the country the page gives, and asks for the country code without one', async () => {
    const buyer = await buyAccount(`national.${Date.now()}@example.com`);
    const national = freshPhone().slice(3);
    const withCountry = await newRequest(buyer.token, national, { country: 'ES' });
    expect(withCountry.status).toBe(201);
    const without = await call('POST', '/spyContent/phoneLocation', {
      body: { phone: national, requesterName: 'Anna (your sister)' },
      headers: { cookie: `token=${buyer.token}`, 'accept-language': 'en' },
    });
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({
      msg: 'Add the country code at the start, e.g. +44 7400 123456 or +1 415 555 2671.',
      kind: 'invalid_country_code',
    });
  });

  it('refuses without a live subscription: "Please re-purchase after the account has expired"', async () => {
    const buyer = await buyAccount(`lapsed.${Date.now()}@example.com`);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 3600 * 1000);
    const res = await newRequest(buyer.token, freshPhone());
    expect(res.status).toBe(403);
    expect((await res.json()).msg).toBe('Please re-purchase after the account has expired');
  });

  it('stops at 30 requests a period and gives the credit back for a request declined without sharing', async () => {
    const buyer = await buyAccount(`quota.${Date.now()}@example.com`);
    const ids: string[] = [];
    for (let i = 0; i < 29; i++) {
      const res = await newRequest(buyer.token, freshPhone());
      expect(res.status).toBe(201);
      ids.push((await res.json()).obj.id);
    }
    const over = await newRequest(buyer.token, freshPhone());
    expect(over.status).toBe(403);
    expect((await over.json()).msg).toBe('You have used all 30 location requests of this billing period.');

    const code = await codeOf(ids[0]);
    const decline = await call('PUT', `/spyContent/phoneLocation/${code}`, { body: { action: 'decline' } });
    expect(decline.status).toBe(200);
    expect((await newRequest(buyer.token, freshPhone())).status).toBe(201);
  });

  it('reports abuse: the number gets no more SMS, and neither a request nor an order is taken for it', async () => {
    const buyer = await buyAccount(`report.${Date.now()}@example.com`);
    const phone = freshPhone();
    const { obj } = await (await newRequest(buyer.token, phone)).json();
    const code = await codeOf(obj.id);
    const report = await call('PUT', `/spyContent/phoneLocation/${code}`, { body: { action: 'report' } });
    expect((await report.json()).obj).toEqual({ status: 'reported' });

    const db = await getDb();
    const smsBefore = await db
      .select({ n: count() })
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, phone));
    const again = await newRequest(buyer.token, phone);
    expect(again.status).toBe(403);
    expect((await again.json()).msg).toBe('This number does not accept location requests.');
    const order = await call('POST', '/portal/order', {
      body: { email: 'someone@example.com', phone, requesterName: 'Anna (your sister)', terms: true, startNow: true },
    });
    expect(order.status).toBe(403);
    const smsAfter = await db
      .select({ n: count() })
      .from(outboundMessages)
      .where(eq(outboundMessages.recipient, phone));
    expect(smsAfter[0].n).toBe(smsBefore[0].n);
    const share = await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 60, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    expect(share.status).toBe(409);
  });

  it('caps SMS per target number per day without writing or sending anything', async () => {
    const phone = freshPhone();
    const db = await getDb();
    await db
      .insert(outboundMessages)
      .values(Array.from({ length: 50 }, () => ({ channel: 'sms' as const, recipient: phone, body: 'x' })));
    const res = await call('POST', '/portal/order', {
      body: { email: 'cap@example.com', phone, requesterName: 'Anna (your sister)', terms: true, startNow: true },
    });
    expect(res.status).toBe(429);
    expect((await res.json()).msg).toBe('Too many location requests for today. Please try again tomorrow.');
    const [{ n }] = await db.select({ n: count() }).from(outboundMessages).where(eq(outboundMessages.recipient, phone));
    expect(n).toBe(50);
  });

  it('clears the positions of an own request only', async () => {
    const alice = await buyAccount(`clear-a.${Date.now()}@example.com`);
    const bob = await buyAccount(`clear-b.${Date.now()}@example.com`);
    const { obj } = await (await newRequest(alice.token, freshPhone())).json();
    const code = await codeOf(obj.id);
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'position', latitude: 1, longitude: 2, accuracy: 3 },
    });
    expect(
      (await call('POST', `/spyContent/clear/${obj.id}`, { headers: { cookie: `token=${bob.token}` } })).status,
    ).toBe(404);
    const cleared = await call('POST', `/spyContent/clear/${obj.id}`, { headers: { cookie: `token=${alice.token}` } });
    // The share's own first fix and the later position.
    expect((await cleared.json()).obj).toEqual({ deleted: 2 });
    const db = await getDb();
    expect(await db.select().from(positions).where(eq(positions.requestId, obj.id))).toHaveLength(0);
  });

  it('after the owner deletes what they shared, the buyer reads that the owner did it, not "not found"', async () => {
    const buyer = await buyAccount(`erased.${Date.now()}@example.com`);
    const cookie = { cookie: `token=${buyer.token}` };
    const phone = freshPhone();
    const { obj } = await (await newRequest(buyer.token, phone)).json();
    const code = await codeOf(obj.id);
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    const trace = async () =>
      (await (await call('GET', `/gpsTrace/phoneLocation/${obj.id}`, { headers: cookie })).json()).obj;
    const row = async () =>
      (await (await call('GET', '/spyContent', { headers: cookie })).json()).page.list.find(
        (r: { id: string }) => r.id === obj.id,
      );
    expect(await trace()).toMatchObject({ status: 'sharing', erased: false });
    expect(await row()).toMatchObject({ erased: false });
    // The safety centre's "Delete what was shared" (services/safety/): the share stops, the positions go.
    const meta = { ip: '203.0.113.7', userAgent: 'vitest', shownText: 'Safety.eraseConfirm' };
    expect(await eraseShared(await getDb(), phone as E164, obj.id, meta)).toMatchObject({ deleted: 1 });
    expect(await trace()).toMatchObject({ status: 'stopped', erased: true, positions: [] });
    expect(await row()).toMatchObject({ status: 'stopped', erased: true, positions: 0, lastPositionAt: null });
  });

  it('counts the requests that changed or received positions until the subscriber has seen them', async () => {
    const buyer = await buyAccount(`notify.${Date.now()}@example.com`);
    const cookie = { cookie: `token=${buyer.token}` };
    const list = async () => (await (await call('GET', '/spyContent', { headers: cookie })).json()).page;
    // The buyer's own new request is not news: it shows its state (SMS, link expiry), not an update.
    const first = await list();
    expect(first.notificationsTotal).toBe(0);
    expect(first.list[0]).toMatchObject({
      status: 'queued',
      updated: false,
      smsSentAt: null,
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const { obj } = await (await newRequest(buyer.token, freshPhone())).json();
    expect((await list()).notificationsTotal).toBe(0);
    const code = await codeOf(obj.id);
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'position', latitude: 1, longitude: 2, accuracy: 3 },
    });
    const page = await list();
    // One request changed (its status, then two positions): one notification, the row that is marked updated.
    expect(page.notificationsTotal).toBe(1);
    expect(page.list.filter((r: { updated: boolean }) => r.updated)).toHaveLength(1);
    expect(page.list.find((r: { id: string }) => r.id === obj.id)).toMatchObject({
      status: 'sharing',
      smsStatus: 'queued',
      positions: 2,
      updated: true,
      lastPositionAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('lists the SMS texts per language', async () => {
    const { obj } = await (await call('GET', '/multilingualWord/one/3/phone_text')).json();
    expect(obj).toContainEqual({ id: 'standard', locale: 'id', text: expect.stringContaining('{link}') });
    expect(obj).toHaveLength(3);
  });
});

describe('the consent link', () => {
  it('answers a guessed code with 404, then 429 after 20 misses from one IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++) {
      const res = await call('GET', `/spyContent/consent/guess${i}${'x'.repeat(20)}`, { ip });
      expect(res.status).toBe(404);
    }
    const blocked = await call('GET', `/spyContent/consent/${'y'.repeat(22)}`, { ip });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });

  it('records one consent when the same Share arrives 50 times at once, and e-mails the buyer once', async () => {
    const buyer = await buyAccount(`burst.${Date.now()}@example.com`);
    const { obj } = await (await newRequest(buyer.token, freshPhone())).json();
    const code = await codeOf(obj.id);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('PUT', `/spyContent/phoneLocation/${code}`, {
          body: { action: 'share', minutes: 60, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
        }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const db = await getDb();
    const records = await db
      .select()
      .from(consents)
      .where(and(eq(consents.requestId, obj.id), eq(consents.decision, 'shared')));
    expect(records).toHaveLength(1);
    const mail = await latestEmail(buyer.email);
    expect(mail.template).toBe('sharing-started');
    expect(mail.body).toContain(`/map/?id=${obj.id}`);
  });

  it('refuses NaN and out-of-range positions, and positions after the sharing window', async () => {
    const buyer = await buyAccount(`window.${Date.now()}@example.com`);
    const { obj } = await (await newRequest(buyer.token, freshPhone())).json();
    const code = await codeOf(obj.id);
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    const put = (body: Record<string, string | number>) =>
      call('PUT', `/spyContent/phoneLocation/${code}`, { body: { action: 'position', ...body } });
    expect((await put({ latitude: 'NaN', longitude: 2, accuracy: 5 })).status).toBe(422);
    expect((await put({ latitude: 10, longitude: 181, accuracy: 5 })).status).toBe(422);
    expect((await put({ latitude: 10, longitude: 20, accuracy: 5 })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    const late = await put({ latitude: 10, longitude: 20, accuracy: 5 });
    expect(late.status).toBe(409);
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, obj.id));
    expect(request.status).toBe('stopped');
  });
});

describe('location upkeep', () => {
  it('expires unanswered links, stops ended windows and deletes old positions', async () => {
    const buyer = await buyAccount(`upkeep.${Date.now()}@example.com`);
    const db = await getDb();
    const quiet = (await (await newRequest(buyer.token, freshPhone())).json()).obj.id as string;
    const sharing = (await (await newRequest(buyer.token, freshPhone())).json()).obj.id as string;
    const code = await codeOf(sharing);
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
    });
    await call('PUT', `/spyContent/phoneLocation/${code}`, {
      body: { action: 'position', latitude: 1, longitude: 2, accuracy: 3 },
    });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 3600 * 1000);
    await runLocateMaintenance(db, 30);
    const states = await db
      .select({ id: locationRequests.id, status: locationRequests.status })
      .from(locationRequests)
      .where(inArray(locationRequests.id, [quiet, sharing]));
    expect(Object.fromEntries(states.map((r) => [r.id, r.status]))).toEqual({
      [quiet]: 'expired',
      [sharing]: 'stopped',
    });
    expect(await db.select().from(positions).where(eq(positions.requestId, sharing))).toHaveLength(2);

    vi.setSystemTime(Date.now() + 31 * 24 * 3600 * 1000);
    const result = await runLocateMaintenance(db, 30);
    expect(result.purgedPositions).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(positions).where(eq(positions.requestId, sharing))).toHaveLength(0);
  });
});
