import { and, eq, gt, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { consents, locationRequests, outboundMessages, positions } from '@/server/db/schema';
import { call } from './support/accounts';
import { API, app, clientHeaders } from './support/api';
import { trialRequest } from './support/billing';

// Consent only with the browser's fix, no position after Stop or without access,
// strict coordinates, and an append-only consent record.

const FIX = { latitude: 52.52, longitude: 13.405, accuracy: 15 };

/** A paid trial and its first request's id and consent code (read from the stored SMS). */
async function requestOf(tag: string) {
  const trial = await trialRequest(tag);
  return { ...trial, code: trial.order.code as string, requestId: trial.id, consentCode: trial.code };
}

function answer(code: string, body: Record<string, string | number | boolean>, ip = '81.2.69.142') {
  return call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip });
}

async function rowsOf(requestId: string) {
  const db = await getDb();
  const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
  return {
    request,
    positions: await db.select().from(positions).where(eq(positions.requestId, requestId)),
    consents: await db.select().from(consents).where(eq(consents.requestId, requestId)),
  };
}

describe('consent follows the browser permission', () => {
  it('a share without the browser fix is refused and stores nothing', async () => {
    const { consentCode, requestId } = await requestOf('nofix');
    const res = await answer(consentCode, { action: 'share', minutes: 60 });
    expect(res.status).toBe(422);
    const rows = await rowsOf(requestId);
    expect(rows.request.status).toBe('queued');
    expect(rows.positions).toHaveLength(0);
    expect(rows.consents).toHaveLength(0);
  });

  it('a refused prompt stores nothing, keeps the request opened, sends no e-mail, tells the buyer, and gives the credit back', async () => {
    const { consentCode, requestId, order, cookie } = await requestOf('denied');
    expect((await call('GET', `/spyContent/consent/${consentCode}`)).status).toBe(200);
    const res = await answer(consentCode, { action: 'denied' });
    expect((await res.json()).obj).toEqual({ status: 'opened' });
    const rows = await rowsOf(requestId);
    expect(rows.positions).toHaveLength(0);
    expect(rows.consents).toHaveLength(0);
    expect(rows.request.firstSharedAt).toBeNull();
    const db = await getDb();
    const mails = await db.select().from(outboundMessages).where(eq(outboundMessages.recipient, order.email));
    expect(mails.map((m) => m.template)).not.toContain('sharing-started');
    const trace = await call('GET', `/gpsTrace/phoneLocation/${requestId}`, { headers: { cookie } });
    expect((await trace.json()).obj).toMatchObject({ status: 'opened', locationDenied: true, positions: [] });
    const list = await (await call('GET', '/spyContent', { headers: { cookie } })).json();
    expect(list.page.list[0]).toMatchObject({ id: requestId, status: 'opened', locationDenied: true });
    // The owner's page offers Share again.
    const view = await (await call('GET', `/spyContent/consent/${consentCode}`)).json();
    expect(view.obj).toMatchObject({ status: 'opened', locationDenied: true });
    // Expired unshared: the credit comes back.
    await db.update(locationRequests).set({ status: 'expired' }).where(eq(locationRequests.id, requestId));
    expect(list.page.quota.used).toBe(1);
    const after = await (await call('GET', '/spyContent', { headers: { cookie } })).json();
    expect(after.page.quota.used).toBe(0);
  });

  it('a share with the fix records consent and stores the fix and the IP area together', async () => {
    const { consentCode, requestId } = await requestOf('shared');
    const res = await answer(consentCode, { action: 'share', minutes: 15, ...FIX });
    expect((await res.json()).obj).toEqual({ status: 'sharing' });
    const rows = await rowsOf(requestId);
    expect(rows.positions.map((p) => p.source).sort()).toEqual(['gps', 'ip']);
    expect(rows.positions.find((p) => p.source === 'gps')).toMatchObject({ latitude: 52.52, longitude: 13.405 });
    expect(rows.consents).toEqual([expect.objectContaining({ decision: 'shared', durationMinutes: 15 })]);
  });
});

describe('coordinates are finite decimal numbers in range', () => {
  it.each([
    ['null', 'null'],
    ['empty', ''],
    ['true', 'true'],
    ['hex', '0x10'],
    ['infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['out of range', '91'],
  ])('refuses a latitude of %s (form body)', async (_name, latitude) => {
    const { consentCode, requestId } = await requestOf('coerce');
    const res = await answer(consentCode, { action: 'share', minutes: 15, ...FIX, latitude });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe('The position is not valid');
    expect((await rowsOf(requestId)).positions).toHaveLength(0);
  });

  it('refuses null, booleans, arrays and strings in JSON, and accepts numbers', async () => {
    const { consentCode, requestId } = await requestOf('json');
    const put = (latitude: unknown) =>
      putJson(consentCode, { action: 'share', minutes: 15, longitude: 13.4, accuracy: 10, latitude });
    for (const bad of [null, '', true, [45], '0x10', {}]) expect((await put(bad)).status).toBe(422);
    expect((await rowsOf(requestId)).positions).toHaveLength(0);
    expect((await put(52.5)).status).toBe(200);
  });
});

/** PUT a JSON body to the consent route. */
function putJson(code: string, body: unknown) {
  return app.request(`${API}/spyContent/phoneLocation/${code}`, {
    method: 'PUT',
    headers: { ...clientHeaders, 'content-type': 'application/json', 'x-peer-ip': '2001:db8::77' },
    body: JSON.stringify(body),
  });
}

describe('no position after Stop', () => {
  it('positions racing a Stop are all recorded before the stop, none after', async () => {
    const { consentCode, requestId } = await requestOf('race');
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    const position = (i: number) =>
      answer(consentCode, { action: 'position', latitude: 52.5 + i / 1000, longitude: 13.4, accuracy: 5 });
    const fired = Array.from({ length: 25 }, (_, i) => position(i));
    const stop = answer(consentCode, { action: 'stop' });
    fired.push(...Array.from({ length: 25 }, (_, i) => position(25 + i)));
    const answers = await Promise.all([stop, ...fired]);
    expect((await answers[0].json()).obj).toEqual({ status: 'stopped' });
    const db = await getDb();
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
    expect(request.status).toBe('stopped');
    const late = await db
      .select()
      .from(positions)
      .where(and(eq(positions.requestId, requestId), gt(positions.recordedAt, request.sharingUntil!)));
    expect(late).toHaveLength(0);
    expect((await position(99)).status).toBe(409);
    const decisions = (await rowsOf(requestId)).consents.map((c) => c.decision).sort();
    expect(decisions).toEqual(['shared', 'stopped']);
  });
});

describe('fixes at once', () => {
  it('100 fixes of one share at once: the per-request limit lets exactly 90 through, each stored once', async () => {
    const { consentCode, requestId } = await requestOf('burst');
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    const before = (await rowsOf(requestId)).positions.length;
    // The owner's page was last heard a minute ago: the burst's fixes are due to write the heartbeat, and they must
    // take turns on the request row to do it (two holding a shared lock, each waiting for the other, deadlock).
    const heardAt = new Date(Date.now() - 60_000);
    await (
      await getDb()
    )
      .update(locationRequests)
      .set({ ownerSeenAt: heardAt })
      .where(eq(locationRequests.id, requestId));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        answer(consentCode, { action: 'position', latitude: 40 + i / 1000, longitude: 3, accuracy: 5 }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(90).fill(200), ...Array(10).fill(429)]);
    // Never stored, never transformed (nor compressed by the server: a fix's answer is a few bytes).
    expect(answers.find((a) => a.status === 200)!.headers.get('cache-control')).toBe('no-store, no-transform');
    const rows = await rowsOf(requestId);
    expect(rows.positions).toHaveLength(before + 90);
    // Each accepted fix once: 90 distinct latitudes among the burst's rows (longitude 3).
    const burst = rows.positions.filter((p) => p.longitude === 3);
    expect(new Set(burst.map((p) => p.latitude)).size).toBe(90);
    // And they counted as the owner's heartbeat.
    expect(rows.request.ownerSeenAt!.getTime()).toBeGreaterThan(heardAt.getTime() + 30_000);
    // Out of points and then stopped: the owner's page is told the share ended (409), not to wait (429).
    expect((await answer(consentCode, { action: 'stop' })).status).toBe(200);
    expect((await answer(consentCode, { action: 'position', ...FIX })).status).toBe(409);
  });
});

describe('fixes racing for the heartbeat', () => {
  it('8 fixes at once, five times, each time with the heartbeat due: all stored, none lost to a deadlock', async () => {
    const { consentCode, requestId } = await requestOf('heartbeat-race');
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    const db = await getDb();
    for (let round = 0; round < 5; round++) {
      const heardAt = new Date(Date.now() - 60_000);
      await db.update(locationRequests).set({ ownerSeenAt: heardAt }).where(eq(locationRequests.id, requestId));
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          answer(consentCode, { action: 'position', latitude: 30 + round + i / 100, longitude: 4, accuracy: 5 }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, requestId));
      expect(request.ownerSeenAt!.getTime()).toBeGreaterThan(heardAt.getTime() + 30_000);
    }
    expect((await rowsOf(requestId)).positions.filter((p) => p.longitude === 4)).toHaveLength(40);
  });
});

describe('guessing codes through positions', () => {
  it('unknown codes sent as positions count as guesses; an IP out of guesses stores nothing, even with a real code', async () => {
    const { consentCode, requestId } = await requestOf('guess-positions');
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    const before = (await rowsOf(requestId)).positions.length;
    const ip = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7::1`;
    const position = (code: string) =>
      call('PUT', `/spyContent/phoneLocation/${code}`, { body: { action: 'position', ...FIX }, ip });
    const misses = await Promise.all(Array.from({ length: 20 }, (_, i) => position(`guess${i}${'z'.repeat(20)}`)));
    expect(misses.map((r) => r.status)).toEqual(Array(20).fill(404));
    const blocked = await position(consentCode);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await rowsOf(requestId)).positions).toHaveLength(before);
    // The owner's own phone, on another network, is not held back by the guesser.
    expect((await answer(consentCode, { action: 'position', ...FIX })).status).toBe(200);
  });
});

describe('locating ends with the subscription', () => {
  it('a refund withdraws open requests: the link accepts no share and the owner is told', async () => {
    const { consentCode, requestId, code, cookie } = await requestOf('refunded');
    const refund = await call('POST', '/admin/order/refund', { body: { code }, headers: { cookie } });
    expect(refund.status).toBe(200);
    const rows = await rowsOf(requestId);
    expect(rows.request.status).toBe('withdrawn');
    expect(rows.request.withdrawnAt).not.toBeNull();
    const share = await answer(consentCode, { action: 'share', minutes: 15, ...FIX });
    expect(share.status).toBe(410);
    expect((await share.json()).msg).toMatch(/withdrawn/);
    expect((await (await call('GET', `/spyContent/consent/${consentCode}`)).json()).obj).toMatchObject({
      status: 'withdrawn',
      withdrawn: true,
    });
    expect((await rowsOf(requestId)).positions).toHaveLength(0);
  });

  it('a sharing request stops accepting positions when the buyer loses access', async () => {
    const { consentCode, requestId, sub } = await requestOf('pastdue');
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    const db = await getDb();
    // Access suspended (past_due) without the request being withdrawn: the position guard alone must refuse.
    await db.execute(sql`update subscriptions set status = 'past_due' where id = ${sub.id}`);
    const res = await answer(consentCode, { action: 'position', ...FIX });
    expect(res.status).toBe(410);
    expect((await rowsOf(requestId)).positions).toHaveLength(2);
  });
});

describe('the consent record is append-only', () => {
  it('every decision is a record; the database refuses UPDATE and DELETE, and the request delete keeps them', async () => {
    const { consentCode, requestId } = await requestOf('ledger');
    await answer(consentCode, { action: 'share', minutes: 15, ...FIX });
    await answer(consentCode, { action: 'stop' });
    await answer(consentCode, { action: 'share', minutes: 60, ...FIX });
    await answer(consentCode, { action: 'report' });
    const { consents: records } = await rowsOf(requestId);
    expect(records.map((r) => r.decision).sort()).toEqual(['reported', 'shared', 'shared_again', 'stopped']);
    expect(records.every((r) => r.targetE164 && r.textHash.length === 64)).toBe(true);
    const db = await getDb();
    await expect(
      db.update(consents).set({ decision: 'declined' }).where(eq(consents.requestId, requestId)),
    ).rejects.toThrow();
    await expect(db.delete(consents).where(eq(consents.requestId, requestId))).rejects.toThrow();
    await db.delete(positions).where(eq(positions.requestId, requestId));
    await db.delete(outboundMessages).where(eq(outboundMessages.locationRequestId, requestId));
    await db.delete(locationRequests).where(eq(locationRequests.id, requestId));
    expect((await rowsOf(requestId)).consents).toHaveLength(4);
  });
});
