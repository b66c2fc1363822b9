import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/server/db/client';
import { consents, locationRequests } from '@/server/db/schema';
import { liveHub } from '@/server/services/locate';
import { MAX_SHARE_MINUTES } from '@/lib/contracts/consent';
import { sharedDuration } from '@/server/services/safety';
import { openStream, until } from './support/live-stream';
import { call, uniqueEmail } from './support/accounts';
import { subscribe, trialRequest } from './support/billing';
import { API, app, clientHeaders } from './support/api';

// More time during a share, the owner's decision alone (docs/decisions/0021-more-time-is-the-owners-decision.md): the
// owner adds +15 min or +1 h (never beyond 8 h from now), the requester may ask once per share, and the buyer's map
// hears the new end and the answer at once.

const fix = { latitude: 40.4168, longitude: -3.7038, accuracy: 12 };
const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
const askMore = (id: string, cookie: string) =>
  call('POST', `/gpsTrace/phoneLocation/${id}/more-time`, { headers: { cookie } });
const heartbeat = (code: string) =>
  call('POST', `/spyContent/phoneLocation/${code}/presence`, { body: { state: 'visible' } });
const dataOf = async (res: Response) => ((await res.json()) as { obj: Record<string, unknown> }).obj;
const untilOf = async (id: string) => {
  const db = await getDb();
  const [row] = await db.select().from(locationRequests).where(eq(locationRequests.id, id));
  return row;
};

/** Reads the stream's `state` events until one matches `expected` (a heartbeat's may come first); null on a timeout. */
async function stateLike(stream: Awaited<ReturnType<typeof openStream>>, expected: Record<string, unknown>) {
  for (;;) {
    const e = await until(stream, 'state');
    if (!e) return null;
    const state = JSON.parse(e.data) as Record<string, unknown>;
    if (Object.entries(expected).every(([k, v]) => state[k] === v)) return state;
  }
}

afterAll(() => liveHub().close());

describe('more time, added by the owner', () => {
  it('moves the end by 15 min and 1 h, records each as a consent record, and the map hears it at once', async () => {
    const { id, code, cookie } = await trialRequest('more-time-extend');
    expect((await answer(code, { action: 'share', minutes: 15, ...fix })).status).toBe(200);
    const before = (await untilOf(id)).sharingUntil!.getTime();
    const stream = await openStream(id, cookie);
    await until(stream, 'trace');

    const res = await answer(code, { action: 'extend', minutes: 15 });
    expect(res.status).toBe(200);
    const body = await dataOf(res);
    expect(Date.parse(body.sharingUntil as string)).toBe(before + 15 * 60_000);
    const state = (await stateLike(stream, { sharingUntil: body.sharingUntil }))!;
    expect(state.sharingUntil).toBe(body.sharingUntil);
    // One time format on both paths: ISO 8601 UTC as toISOString writes it.
    expect(state.sharingUntil).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect((await answer(code, { action: 'extend', minutes: 60 })).status).toBe(200);
    expect((await untilOf(id)).sharingUntil!.getTime()).toBe(before + 75 * 60_000);
    const db = await getDb();
    const records = await db
      .select()
      .from(consents)
      .where(and(eq(consents.requestId, id), eq(consents.decision, 'extended')));
    expect(records.map((r) => r.durationMinutes).sort()).toEqual([15, 60]);
    stream.close();
  });

  it('never goes beyond 8 hours from now, even with 30 taps at once', async () => {
    const { id, code } = await trialRequest('more-time-cap');
    expect((await answer(code, { action: 'share', minutes: 480, ...fix })).status).toBe(200);
    const start = Date.now();
    const all = await Promise.all(Array.from({ length: 30 }, () => answer(code, { action: 'extend', minutes: 60 })));
    expect(all.every((r) => r.status === 200)).toBe(true);
    const end = (await untilOf(id)).sharingUntil!.getTime();
    expect(end).toBeLessThanOrEqual(Date.now() + MAX_SHARE_MINUTES * 60_000);
    expect(end).toBeGreaterThanOrEqual(start + (MAX_SHARE_MINUTES - 1) * 60_000);
    // What was added is recorded, and only that: the records sum to the end's move.
    const db = await getDb();
    const records = await db.select().from(consents).where(eq(consents.requestId, id)).orderBy(consents.createdAt);
    const shared = records.find((r) => r.decision === 'shared')!;
    const added = records.filter((r) => r.decision === 'extended').reduce((n, r) => n + r.durationMinutes!, 0);
    expect(added).toBeLessThanOrEqual(1);
    expect(end - shared.createdAt.getTime()).toBeGreaterThanOrEqual((480 + added) * 60_000 - 5_000);
    // The safety centre counts the planned time with what was added.
    const later = new Date(shared.createdAt.getTime() + 10 * 3600_000);
    expect(sharedDuration(records, later)).toBe((480 + added) * 60_000);
  });

  it('refuses another step, a share that does not run, and another request', async () => {
    const { code } = await trialRequest('more-time-refused');
    const bad = await answer(code, { action: 'extend', minutes: 30 });
    expect(bad.status).toBe(422);
    // Not shared yet: nothing to extend.
    expect((await answer(code, { action: 'extend', minutes: 15 })).status).toBe(409);
    expect((await answer(code, { action: 'share', minutes: 15, ...fix })).status).toBe(200);
    expect((await answer(code, { action: 'stop' })).status).toBe(200);
    expect((await answer(code, { action: 'extend', minutes: 15 })).status).toBe(409);
  });
});

describe('the requester asks for more time', () => {
  it('is taken once per share, of 30 asks at once; the owner sees it and answers; a new share may ask again', async () => {
    const { id, code, cookie } = await trialRequest('more-time-ask');
    // Nothing runs yet: no ask.
    expect((await askMore(id, cookie)).status).toBe(409);
    expect((await answer(code, { action: 'share', minutes: 15, ...fix })).status).toBe(200);
    const stream = await openStream(id, cookie);
    await until(stream, 'trace');

    const asks = await Promise.all(Array.from({ length: 30 }, () => askMore(id, cookie)));
    expect(asks.filter((r) => r.status === 200)).toHaveLength(1);
    expect(asks.filter((r) => r.status === 409)).toHaveLength(29);
    const refused = (await asks.find((r) => r.status === 409)!.json()) as { msg: string };
    expect(refused.msg).toMatch(/already asked/i);
    expect(await stateLike(stream, { moreTime: 'asked' })).not.toBeNull();

    // The owner's page learns of it with its heartbeat, its fixes and its view.
    expect(await dataOf(await heartbeat(code))).toMatchObject({ status: 'sharing', moreTimeAsked: true });
    expect(await dataOf(await answer(code, { action: 'position', ...fix }))).toMatchObject({ moreTimeAsked: true });
    const view = await dataOf(await call('GET', `/spyContent/consent/${code}`));
    expect(view.moreTimeAsked).toBe(true);

    // No: the end stays, the buyer is told.
    const end = (await untilOf(id)).sharingUntil!.toISOString();
    expect(await dataOf(await answer(code, { action: 'keep_end' }))).toMatchObject({
      sharingUntil: end,
      moreTimeAsked: false,
    });
    expect(await stateLike(stream, { moreTime: 'refused', sharingUntil: end })).not.toBeNull();
    expect((await askMore(id, cookie)).status).toBe(409);

    // A new share after a stop: one new ask, and the owner's +15 min answers it as granted.
    expect((await answer(code, { action: 'stop' })).status).toBe(200);
    expect((await answer(code, { action: 'share', minutes: 15, ...fix })).status).toBe(200);
    expect((await askMore(id, cookie)).status).toBe(200);
    expect((await answer(code, { action: 'extend', minutes: 15 })).status).toBe(200);
    expect((await untilOf(id)).moreTimeAsk).toBe('granted');
    const trace = await dataOf(await call('GET', `/gpsTrace/phoneLocation/${id}`, { headers: { cookie } }));
    expect(trace.moreTime).toBe('granted');
    stream.close();
  });

  it("answers 404 for another buyer's request and 401 without a session", async () => {
    const mine = await trialRequest('more-time-mine');
    await answer(mine.code, { action: 'share', minutes: 15, ...fix });
    const other = await subscribe(uniqueEmail('more-time-other'));
    expect((await askMore(mine.id, other.cookie)).status).toBe(404);
    const res = await app.request(`${API}/gpsTrace/phoneLocation/${mine.id}/more-time`, {
      method: 'POST',
      headers: clientHeaders,
    });
    expect(res.status).toBe(401);
    expect((await untilOf(mine.id)).moreTimeAsk).toBeNull();
  });
});
