import { afterAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { getDb, getDbState } from '@/server/db/client';
import { locationRequests } from '@/server/db/schema';
import { WATCH_TTL_MS, liveHub, streams } from '@/server/services/locate';
import { openStream, until } from './support/live-stream';
import { call, uniqueEmail } from './support/accounts';
import { subscribe, trialRequest } from './support/billing';

// Fixes driven by viewers (docs/decisions/0023-fixes-driven-by-viewers.md): the owner's page learns whether a buyer's
// map is open, and of a "Refresh now", from the answers to its heartbeats and fixes.

const fix = { latitude: 40.4168, longitude: -3.7038, accuracy: 12 };
const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
const heartbeat = async (code: string) => {
  const res = await call('POST', `/spyContent/phoneLocation/${code}/presence`, { body: { state: 'visible' } });
  return ((await res.json()) as { obj: { watched: boolean; fixWantedAt: string | null } }).obj;
};
const refresh = (id: string, cookie: string, lang = 'en') =>
  call('POST', `/gpsTrace/phoneLocation/${id}/refresh`, { headers: { cookie, 'accept-language': lang } });

afterAll(() => liveHub().close());

describe('a map open or not', () => {
  it('says watched while a stream of the request is open, and not once its mark runs out', async () => {
    const { id, code, cookie } = await trialRequest('watch-open');
    expect((await answer(code, { action: 'share', minutes: 60, ...fix })).status).toBe(200);
    expect((await heartbeat(code)).watched).toBe(false);
    const stream = await openStream(id, cookie);
    await until(stream, 'trace');
    await expect.poll(async () => (await heartbeat(code)).watched, { timeout: 5_000 }).toBe(true);
    // The mark is only pushed forward while a stream is held: one that ran out reads as not watched.
    stream.close();
    const db = await getDb();
    await db
      .update(locationRequests)
      .set({ watchedUntil: new Date(Date.now() - 1) })
      .where(eq(locationRequests.id, id));
    expect((await heartbeat(code)).watched).toBe(false);
    expect(WATCH_TTL_MS).toBeGreaterThan(2 * 20_000);
  });
});

describe('Refresh now', () => {
  it('marks the open maps without waiting for a row that a fix holds locked; that one is marked next round', async () => {
    const locked = await trialRequest('watch-locked');
    const free = await trialRequest('watch-free');
    const opened = [await openStream(locked.id, locked.cookie), await openStream(free.id, free.cookie)];
    for (const stream of opened) await until(stream, 'trace');
    const db = await getDb();
    const both = inArray(locationRequests.id, [locked.id, free.id]);
    const markOf = async (id: string) =>
      (await db.select().from(locationRequests).where(eq(locationRequests.id, id)))[0].watchedUntil?.getTime() ?? 0;
    await db
      .update(locationRequests)
      .set({ watchedUntil: new Date(0) })
      .where(both);
    // A fix's statement holds the row, as savePosition's FOR NO KEY UPDATE does while it runs.
    const holder = await (await getDbState()).pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from location_requests where id = $1 for no key update', [locked.id]);
      await streams().tick();
      await expect.poll(() => markOf(free.id), { timeout: 5_000 }).toBeGreaterThan(Date.now());
      expect(await markOf(locked.id)).toBe(0);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
    await streams().tick();
    await expect.poll(() => markOf(locked.id), { timeout: 5_000 }).toBeGreaterThan(Date.now());
    for (const stream of opened) stream.close();
  });

  it('is taken once of 30 at once, reaches the owner page with its heartbeat and fixes, and says when to retry', async () => {
    const { id, code, cookie } = await trialRequest('refresh-now');
    expect((await refresh(id, cookie)).status).toBe(409);
    expect((await answer(code, { action: 'share', minutes: 60, ...fix })).status).toBe(200);
    const all = await Promise.all(Array.from({ length: 30 }, () => refresh(id, cookie, 'es')));
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    const limited = all.filter((r) => r.status === 429);
    expect(limited).toHaveLength(29);
    expect(((await limited[0].json()) as { msg: string }).msg).toMatch(/Vuelve a intentarlo en \d+ s/);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);
    const askedAt = ((await all.find((r) => r.status === 200)!.json()) as { obj: { askedAt: string } }).obj.askedAt;
    expect((await heartbeat(code)).fixWantedAt).toBe(askedAt);
    const res = await answer(code, { action: 'position', ...fix });
    expect(((await res.json()) as { obj: { fixWantedAt: string } }).obj.fixWantedAt).toBe(askedAt);
  });

  it("answers 404 for another buyer's request", async () => {
    const mine = await trialRequest('refresh-mine');
    await answer(mine.code, { action: 'share', minutes: 60, ...fix });
    const other = await subscribe(uniqueEmail('refresh-other'));
    expect((await refresh(mine.id, other.cookie)).status).toBe(404);
    expect((await heartbeat(mine.code)).fixWantedAt).toBeNull();
  });
});
