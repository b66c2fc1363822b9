import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { liveHub, streamCaps, streams } from '@/server/services/locate';
import { getDb } from '@/server/db/client';
import { outboundMessages } from '@/server/db/schema';
import { peopleSchema } from '@/lib/contracts/locations';
import { API, app, clientHeaders } from './support/api';
import { openPath, until, type SseEvent } from './support/live-stream';
import { call, nextPhone } from './support/accounts';
import { trialRequest } from './support/billing';

// The people map (docs/features.md "The people map"): every request of the account that shares, or has shared and
// still has its positions, over one stream whose events name their request.

const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
const fix = (lat: number) => ({ latitude: lat, longitude: -3.7, accuracy: 12 });

/** A second request of the buyer of `cookie` to a fresh number; its id and consent code. */
async function anotherRequest(cookie: string): Promise<{ id: string; code: string }> {
  const res = await call('POST', '/spyContent/phoneLocation', {
    body: { phone: nextPhone(), requesterName: 'Anna (your sister)' },
    headers: { cookie },
  });
  expect(res.status).toBe(201);
  const { obj } = (await res.json()) as { obj: { id: string } };
  const db = await getDb();
  const [sms] = await db.select().from(outboundMessages).where(eq(outboundMessages.locationRequestId, obj.id));
  return { id: obj.id, code: /\?c=([A-Za-z0-9_-]+)/.exec(sms.body)![1] };
}

/** The next event of `stream` of type `type` about request `r` (others skipped). */
async function untilAbout(stream: Parameters<typeof until>[0], type: string, r: string): Promise<SseEvent | null> {
  for (;;) {
    const e = await until(stream, type);
    if (!e) return null;
    const data = JSON.parse(e.data) as { r?: string; id?: string };
    if ((data.r ?? data.id) === r) return e;
  }
}

const peopleOf = async (cookie: string) => {
  const res = await call('GET', '/gpsTrace/people', { headers: { cookie } });
  expect(res.status).toBe(200);
  return peopleSchema.parse(((await res.json()) as { obj: unknown }).obj).people;
};

afterAll(() => liveHub().close());

describe('the people map', () => {
  it('shows the shares of the account only, each with its newest fix, running ones first', async () => {
    const a = await trialRequest('people-list');
    const b = await anotherRequest(a.cookie);
    const waiting = await anotherRequest(a.cookie);
    const stranger = await trialRequest('people-stranger');
    expect((await answer(a.code, { action: 'share', minutes: 60, ...fix(40.4) })).status).toBe(200);
    expect((await answer(a.code, { action: 'position', ...fix(40.41) })).status).toBe(200);
    expect((await answer(b.code, { action: 'share', minutes: 60, ...fix(41.4) })).status).toBe(200);
    expect((await answer(b.code, { action: 'stop' })).status).toBe(200);
    expect((await answer(stranger.code, { action: 'share', minutes: 60, ...fix(42.4) })).status).toBe(200);

    const people = await peopleOf(a.cookie);
    expect(people.map((p) => p.id)).toEqual([a.id, b.id]);
    expect(people.map((p) => p.id)).not.toContain(waiting.id);
    expect(people[0]).toMatchObject({ status: 'sharing', positions: [{ source: 'gps', latitude: 40.41 }] });
    expect(people[0].positions).toHaveLength(1);
    expect(people[1]).toMatchObject({ status: 'stopped', ended: 'owner', positions: [{ latitude: 41.4 }] });
    expect(await peopleOf(stranger.cookie)).toHaveLength(1);
    const res = await app.request(`${API}/gpsTrace/people`, { headers: clientHeaders });
    expect(res.status).toBe(401);
  });

  it('streams every person over one connection: fixes and states name their request; joins and leaves', async () => {
    const a = await trialRequest('people-stream');
    const b = await anotherRequest(a.cookie);
    const c = await anotherRequest(a.cookie);
    const stranger = await trialRequest('people-stream-stranger');
    await answer(a.code, { action: 'share', minutes: 60, ...fix(40.4) });
    await answer(b.code, { action: 'share', minutes: 60, ...fix(41.4) });
    await answer(stranger.code, { action: 'share', minutes: 60, ...fix(42.4) });
    const listeners = liveHub().size;
    const opened = await openPath('/gpsTrace/people/live', a.cookie);
    expect(opened.status).toBe(200);
    // Every event read, whichever request it names.
    const seen: SseEvent[] = [];
    const stream = {
      next: async (ms?: number) => {
        const e = await opened.next(ms);
        if (e) seen.push(e);
        return e;
      },
    };
    const first = JSON.parse((await until(stream, 'people'))!.data) as { people: { id: string }[] };
    expect(first.people.map((p) => p.id)).toEqual([a.id, b.id]);
    // One connection, one listener per person on the hub.
    expect(liveHub().size - listeners).toBe(2);

    // A stranger's fix never reaches this map; B's and A's do, each named.
    await answer(stranger.code, { action: 'position', ...fix(42.5) });
    await answer(b.code, { action: 'position', ...fix(41.5) });
    const moved = JSON.parse((await untilAbout(stream, 'position', b.id))!.data);
    expect(moved).toMatchObject({ r: b.id, source: 'gps', latitude: 41.5 });
    await answer(a.code, { action: 'position', ...fix(40.5) });
    expect(JSON.parse((await untilAbout(stream, 'position', a.id))!.data)).toMatchObject({ latitude: 40.5 });

    // B's owner stops: B's whole view comes again, ended.
    await answer(b.code, { action: 'stop' });
    expect(JSON.parse((await untilAbout(stream, 'person', b.id))!.data)).toMatchObject({
      status: 'stopped',
      ended: 'owner',
    });

    // C's owner shares after the map opened: C joins at the stream's next upkeep.
    await answer(c.code, { action: 'share', minutes: 60, ...fix(43.4) });
    await streams().tick();
    expect(JSON.parse((await untilAbout(stream, 'person', c.id))!.data)).toMatchObject({
      status: 'sharing',
      positions: [{ latitude: 43.4 }],
    });

    // B's positions deleted: B leaves the map.
    expect((await call('POST', `/spyContent/clear/${b.id}`, { headers: { cookie: a.cookie } })).status).toBe(200);
    await streams().tick();
    expect(JSON.parse((await untilAbout(stream, 'gone', b.id))!.data)).toEqual({ r: b.id });
    opened.close();
    expect(seen.filter((e) => e.data.includes(stranger.id))).toEqual([]);
    expect(seen.filter((e) => e.event === 'position').length).toBeGreaterThanOrEqual(2);
  });

  it('takes one stream slot: 30 opens at once from one session open streamCaps().session, the rest 429', async () => {
    const a = await trialRequest('people-cap');
    await answer(a.code, { action: 'share', minutes: 60, ...fix(40.4) });
    const opened = await Promise.all(
      Array.from({ length: 30 }, () =>
        app.request(`${API}/gpsTrace/people/live`, { headers: { ...clientHeaders, cookie: a.cookie } }),
      ),
    );
    const statuses = opened.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(streamCaps().session);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - streamCaps().session);
    for (const res of opened) await res.body?.cancel();
    // A HEAD opens nothing.
    const head = await app.request(`${API}/gpsTrace/people/live`, {
      method: 'HEAD',
      headers: { ...clientHeaders, cookie: a.cookie },
    });
    expect(head.status).toBe(200);
  });
});
