import { afterAll, describe, expect, it, vi } from 'vitest';
import { STREAM_RETRY_S, liveBroker, liveHub, streamCaps, streams } from '@/server/services/locate';
import { getDb, getDbState } from '@/server/db/client';
import { positions } from '@/server/db/schema';
import { LIVE_OFFLINE_AFTER_MS, liveness, type LiveInput } from '@/lib/live-state';
import { API, app, clientHeaders } from './support/api';
import { openStream, until } from './support/live-stream';
import { call, uniqueEmail } from './support/accounts';
import { subscribe, trialRequest } from './support/billing';

// Live location: the buyer's stream (Server-Sent Events fed by PostgreSQL LISTEN/NOTIFY), the owner's page signals,
// and the buyer's word for how live a share is (lib/live-state.ts).

const requestOf = trialRequest;

const fixAt = (i: number) => ({ latitude: 40.4 + i * 0.01, longitude: -3.7, accuracy: 12 });
const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
/** The owner's page signal, sent as navigator.sendBeacon does: a JSON blob, no website_type header. */
const beacon = (code: string, state: string) =>
  app.request(`${API}/spyContent/phoneLocation/${code}/presence`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state }),
  });

afterAll(() => liveHub().close());

describe("the buyer's live stream", () => {
  it('sends the trace, then each position as it is committed, and state changes from the owner page', async () => {
    const { id, code, cookie } = await requestOf('live-stream');
    const stream = await openStream(id, cookie);
    expect(stream.status).toBe(200);
    const first = await until(stream, 'trace');
    expect(JSON.parse(first!.data)).toMatchObject({ id, positions: [] });

    expect((await answer(code, { action: 'share', minutes: 60, ...fixAt(0) })).status).toBe(200);
    let shared = await until(stream, 'position');
    // The IP area of the share comes first, then the browser's fix.
    if (JSON.parse(shared!.data).source === 'ip') shared = await until(stream, 'position');
    expect(JSON.parse(shared!.data)).toMatchObject({ source: 'gps', latitude: 40.4, accuracy: 12 });
    expect(Number(shared!.id)).toBeGreaterThan(0);

    const started = Date.now();
    expect((await answer(code, { action: 'position', ...fixAt(1) })).status).toBe(200);
    const moved = await until(stream, 'position');
    expect(JSON.parse(moved!.data).latitude).toBeCloseTo(40.41);
    expect(Date.now() - started).toBeLessThan(5_000);

    expect((await beacon(code, 'hidden')).status).toBe(200);
    expect(JSON.parse((await until(stream, 'state'))!.data)).toMatchObject({ status: 'paused', liveSignal: 'hidden' });
    expect((await beacon(code, 'permission_lost')).status).toBe(200);
    expect(JSON.parse((await until(stream, 'state'))!.data)).toMatchObject({
      status: 'paused',
      liveSignal: 'permission_lost',
    });
    expect((await beacon(code, 'visible')).status).toBe(200);
    const back = JSON.parse((await until(stream, 'state'))!.data);
    expect(back).toMatchObject({ status: 'sharing', liveSignal: null });
    expect(Date.parse(back.ownerSeenAt)).toBeGreaterThan(Date.now() - 10_000);

    expect((await answer(code, { action: 'stop' })).status).toBe(200);
    const stopped = JSON.parse((await until(stream, 'trace'))!.data);
    expect(stopped).toMatchObject({ status: 'stopped', ended: 'owner' });
    stream.close();
  });

  it('resumes after Last-Event-ID with only the later positions, none lost or doubled', async () => {
    const { id, code, cookie } = await requestOf('live-resume');
    await answer(code, { action: 'share', minutes: 60, ...fixAt(0) });
    const first = await openStream(id, cookie);
    const trace = JSON.parse((await until(first, 'trace'))!.data);
    const lastSeen = trace.positions[0].id as number;
    first.close();
    // Three fixes while the buyer's phone was offline.
    for (let i = 1; i <= 3; i++) expect((await answer(code, { action: 'position', ...fixAt(i) })).status).toBe(200);
    const again = await openStream(id, cookie, String(lastSeen));
    const got: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await until(again, 'position');
      got.push(Number(p!.id));
    }
    expect(got).toEqual([...got].sort((a, b) => a - b));
    expect(new Set(got).size).toBe(3);
    expect(got.every((n) => n > lastSeen)).toBe(true);
    expect(await until(again, 'state')).not.toBeNull();
    again.close();
  });

  it('reads what one notice announces once for every stream that hears it, each stream getting its own positions', async () => {
    const requests = await Promise.all(Array.from({ length: 12 }, (_, i) => requestOf(`live-batch-${i}`)));
    for (const r of requests)
      expect((await answer(r.code, { action: 'share', minutes: 60, ...fixAt(0) })).status).toBe(200);
    const opened = await Promise.all(requests.map((r) => openStream(r.id, r.cookie)));
    for (const stream of opened) expect(await until(stream, 'trace')).not.toBeNull();
    // What the shares announced has been heard (and read) by now.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { live } = await getDbState();
    const statements = vi.spyOn(live.$client, 'query');
    try {
      // Positions written by another process, announced in one batch, as its broker does after their commits.
      const written = await (
        await getDb()
      )
        .insert(positions)
        .values(requests.map((r, i) => ({ requestId: r.id, source: 'gps' as const, latitude: 10 + i, longitude: 20 })))
        .returning({ id: positions.id, requestId: positions.requestId });
      for (const row of written) liveBroker().announce(row.requestId, row.id);
      await liveBroker().flush();
      for (const [i, stream] of opened.entries()) {
        const position = JSON.parse((await until(stream, 'position'))!.data);
        expect(position).toMatchObject({ latitude: 10 + i, longitude: 20, source: 'gps' });
      }
      // Twelve streams, one read of their new positions, on the live streams' own pool.
      const reads = statements.mock.calls.filter((args) => JSON.stringify(args).includes('unnest'));
      expect(reads).toHaveLength(1);
    } finally {
      statements.mockRestore();
      for (const stream of opened) stream.close();
    }
  });

  it("answers 404 for another buyer's request and 401 without a session", async () => {
    const mine = await requestOf('live-owner');
    const other = await subscribe(uniqueEmail('live-other'));
    expect((await openStream(mine.id, other.cookie)).status).toBe(404);
    const res = await app.request(`${API}/gpsTrace/phoneLocation/${mine.id}/live`, { headers: clientHeaders });
    expect(res.status).toBe(401);
  });

  it('names the place nearest to the newest GPS fix as it changes, without a reload', async () => {
    const { id, code, cookie } = await requestOf('live-place');
    const stream = await openStream(id, cookie);
    const trace = JSON.parse((await until(stream, 'trace'))!.data);
    expect(trace.place).toBeNull();
    // Holborn, London.
    const london = { latitude: 51.5176, longitude: -0.12, accuracy: 15 };
    expect((await answer(code, { action: 'share', minutes: 60, ...london })).status).toBe(200);
    const first = JSON.parse((await until(stream, 'place'))!.data);
    expect(first.place).toMatchObject({ country: 'GB', name: expect.any(String) });
    // A fix in the same place names nothing again; one in Madrid names Madrid's.
    expect((await answer(code, { action: 'position', ...london, latitude: 51.5177 })).status).toBe(200);
    expect(
      (await answer(code, { action: 'position', latitude: 40.4168, longitude: -3.7038, accuracy: 15 })).status,
    ).toBe(200);
    const next = JSON.parse((await until(stream, 'place'))!.data);
    expect(next.place).toMatchObject({ country: 'ES' });
    stream.close();
  });

  it('tells the map of each heartbeat while sharing, announced by the broker (no trigger on the time alone)', async () => {
    const { id, code, cookie } = await requestOf('live-heartbeat');
    expect((await answer(code, { action: 'share', minutes: 60, ...fixAt(0) })).status).toBe(200);
    const stream = await openStream(id, cookie);
    const trace = JSON.parse((await until(stream, 'trace'))!.data);
    const before = Date.parse(trace.ownerSeenAt);
    await new Promise((r) => setTimeout(r, 20));
    expect((await beacon(code, 'visible')).status).toBe(200);
    // The share's own state change may still be on its way when the stream opens (it carries the same time): the
    // heartbeat's is the state event with a later ownerSeenAt, and one must come.
    let seen = JSON.parse((await until(stream, 'state'))!.data);
    for (let i = 0; i < 5 && Date.parse(seen.ownerSeenAt) <= before; i++)
      seen = JSON.parse((await until(stream, 'state'))!.data);
    expect(seen).toMatchObject({ status: 'sharing', liveSignal: null });
    expect(Date.parse(seen.ownerSeenAt)).toBeGreaterThan(before);
    stream.close();
  });

  it('caps one session at streamCaps().session streams: 30 at once open 4, the rest 429 in the caller’s language', async () => {
    const { id, cookie } = await requestOf('live-cap');
    const before = liveHub().size;
    const opened = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.request(`${API}/gpsTrace/phoneLocation/${id}/live`, {
          headers: { ...clientHeaders, 'accept-language': i % 2 ? 'es' : 'en', cookie },
        }),
      ),
    );
    const ok = opened.filter((r) => r.status === 200);
    const refused = opened.filter((r) => r.status === 429);
    expect(ok).toHaveLength(streamCaps().session);
    expect(refused).toHaveLength(30 - streamCaps().session);
    expect(refused.every((r) => r.headers.get('retry-after') === String(STREAM_RETRY_S))).toBe(true);
    const messages = new Set(await Promise.all(refused.map(async (r) => (await r.json()).msg as string)));
    expect([...messages].sort()).toEqual([
      'Este mapa ya está abierto en demasiadas pestañas o dispositivos. Cierra una y se volverá a conectar solo',
      'This map is already open in too many tabs or devices. Close one and it will reconnect by itself',
    ]);
    expect(liveHub().size).toBe(before + streamCaps().session);
    // Closed tabs free their listeners and their slots at once: the map opens again.
    await Promise.all(ok.map((r) => r.body!.cancel()));
    for (let i = 0; i < 50 && liveHub().size > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(liveHub().size).toBe(before);
    const again = await openStream(id, cookie);
    expect(again.status).toBe(200);
    again.close();
  });

  it('answers HEAD with the stream’s header fields and opens nothing (50 at once)', async () => {
    const { id, cookie } = await requestOf('live-head');
    const before = { hub: liveHub().size, open: streams().size };
    const heads = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.request(`${API}/gpsTrace/phoneLocation/${id}/live`, {
          method: 'HEAD',
          headers: { ...clientHeaders, cookie },
        }),
      ),
    );
    expect(heads.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(heads[0].headers.get('content-type')).toBe('text/event-stream');
    expect({ hub: liveHub().size, open: streams().size }).toEqual(before);
    const other = await subscribe(uniqueEmail('live-head-other'));
    const foreign = await app.request(`${API}/gpsTrace/phoneLocation/${id}/live`, {
      method: 'HEAD',
      headers: { ...clientHeaders, cookie: other.cookie },
    });
    expect(foreign.status).toBe(404);
    // The stream still opens after them: HEADs took no slot.
    const stream = await openStream(id, cookie);
    expect(stream.status).toBe(200);
    stream.close();
  });

  it('refuses a presence signal without a share, and counts an unknown code as a guess', async () => {
    const { code } = await requestOf('live-presence');
    expect((await beacon(code, 'hidden')).status).toBe(409);
    expect((await beacon('x'.repeat(22), 'hidden')).status).toBe(404);
    expect((await beacon(code, 'asleep')).status).toBe(422);
  });
});

describe("the buyer's word for how live a share is", () => {
  const base: LiveInput = {
    status: 'sharing',
    ownerSeenAt: new Date(1_000_000).toISOString(),
    liveSignal: null,
    ended: null,
    withdrawn: false,
    sharingUntil: new Date(9_000_000).toISOString(),
  };
  it('is live while heard from, offline after a minute of silence, paused or permission lost when said', () => {
    expect(liveness(base, 1_000_000 + LIVE_OFFLINE_AFTER_MS)).toBe('live');
    expect(liveness(base, 1_000_001 + LIVE_OFFLINE_AFTER_MS)).toBe('offline');
    expect(liveness({ ...base, status: 'paused', liveSignal: 'hidden' }, 1_000_000)).toBe('paused');
    expect(liveness({ ...base, status: 'paused', liveSignal: 'permission_lost' }, 1_000_000)).toBe('permission_lost');
    expect(liveness(base, 9_000_000)).toBe('time_ran_out');
  });
  it('tells how a share ended', () => {
    expect(liveness({ ...base, status: 'stopped', ended: 'owner' }, 0)).toBe('stopped_by_owner');
    expect(liveness({ ...base, status: 'stopped', ended: 'time' }, 0)).toBe('time_ran_out');
    expect(liveness({ ...base, status: 'declined' }, 0)).toBe('declined');
    expect(liveness({ ...base, status: 'expired', withdrawn: true }, 0)).toBe('withdrawn');
    expect(liveness({ ...base, status: 'opened' }, 0)).toBe('waiting');
  });
});
