import { createServer, get, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { canonicalPath, serveLiveStream } from '@/server/api/live-node';
import { getDb } from '@/server/db/client';
import { sessions } from '@/server/db/schema';
import {
  SESSION_CHECK_MS,
  STREAM_LIFETIME_MS,
  STREAM_RETRY_S,
  liveHub,
  streamCaps,
  streams,
} from '@/server/services/locate';
import { createSession } from '@/server/services/accounts';
import { sha256 } from '@/server/services/tokens';
import { clientHeaders } from './support/api';
import { app } from './support/api';
import { call, uniqueEmail } from './support/accounts';
import { subscribe, trialRequest } from './support/billing';

// The buyer's live stream answered by the Node server itself (server/api/live-node.ts), as scripts/start.mjs does
// it: a real HTTP server whose requests go to serveLiveStream first and to the API (Hono on Node) when it declines.

let server: Server;
let origin = '';
/** How many requests the Node path answered itself. */
let servedByNode = 0;

beforeAll(async () => {
  const api = getRequestListener(app.fetch);
  server = createServer((req, res) => {
    // The peer's address for the API, as scripts/start.mjs gives it to Next (Hono's Node adapter reads rawHeaders).
    req.rawHeaders.push('x-peer-ip', req.socket.remoteAddress ?? '');
    void serveLiveStream(req, res).then((served) => {
      if (served) servedByNode += 1;
      else void api(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  streams().closeAll();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await liveHub().close();
});

type Opened = { res: IncomingMessage; events: { event: string; id?: string; data: string }[]; ended: Promise<void> };

/** GET the live path of request `id` over HTTP with `headers`; collects the events as they arrive. */
function open(id: string, headers: Record<string, string>): Promise<Opened> {
  return openPath(`/api_f/v1/gpsTrace/phoneLocation/${id}/live`, headers);
}

/** GET `path` (sent as written) over HTTP with `headers`; collects the events as they arrive. */
function openPath(path: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = get(`${origin}${path}`, { headers }, (res) => {
      const events: Opened['events'] = [];
      let buffer = '';
      res.setEncoding('utf8');
      const ended = new Promise<void>((done) => res.on('end', done).on('close', done));
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e = { event: 'message', data: '' } as Opened['events'][number];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('data: ')) e.data += line.slice(6);
          }
          if (e.data) events.push(e);
        }
      });
      resolve({ res, events, ended });
    });
    req.on('error', reject);
  });
}

/** Waits until `check` holds (polling every 20 ms, at most `ms`). */
async function eventually(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });

describe('the live stream on the Node server', () => {
  it('answers a buyer’s own stream itself: the trace, then each position as it is committed', async () => {
    const { id, code, cookie } = await requestOfOwn('node-live');
    const before = servedByNode;
    const stream = await open(id, { cookie });
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers['content-type']).toBe('text/event-stream');
    expect(stream.res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(servedByNode).toBe(before + 1);
    expect(await eventually(() => stream.events.some((e) => e.event === 'trace'))).toBe(true);
    expect(JSON.parse(stream.events[0].data)).toMatchObject({ id, positions: [] });

    expect(
      (await answer(code, { action: 'share', minutes: 60, latitude: 40.4, longitude: -3.7, accuracy: 12 })).status,
    ).toBe(200);
    expect((await answer(code, { action: 'position', latitude: 40.41, longitude: -3.7, accuracy: 12 })).status).toBe(
      200,
    );
    expect(
      await eventually(() =>
        stream.events.some((e) => e.event === 'position' && JSON.parse(e.data).latitude === 40.41),
      ),
    ).toBe(true);
    const ids = stream.events.filter((e) => e.event === 'position').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    stream.res.destroy();
  });

  it('resumes after Last-Event-ID with only the later positions', async () => {
    const { id, code, cookie } = await requestOfOwn('node-resume');
    await answer(code, { action: 'share', minutes: 60, latitude: 40.4, longitude: -3.7, accuracy: 12 });
    const first = await open(id, { cookie });
    await eventually(() => first.events.length > 0);
    const lastSeen = JSON.parse(first.events[0].data).positions[0].id as number;
    first.res.destroy();
    for (let i = 1; i <= 3; i++)
      await answer(code, { action: 'position', latitude: 41 + i, longitude: -3.7, accuracy: 12 });
    const again = await open(id, { cookie, 'last-event-id': String(lastSeen) });
    expect(await eventually(() => again.events.some((e) => e.event === 'state'))).toBe(true);
    const got = again.events.filter((e) => e.event === 'position').map((e) => Number(e.id));
    expect(got).toHaveLength(3);
    expect(got.every((n) => n > lastSeen)).toBe(true);
    expect(again.events.some((e) => e.event === 'trace')).toBe(false);
    again.res.destroy();
  });

  it('leaves every refusal to the API: 404 for another buyer’s request, 401 without or with a dead session', async () => {
    const mine = await requestOfOwn('node-owner');
    const other = await subscribe(uniqueEmail('node-other'));
    const before = servedByNode;
    const foreign = await open(mine.id, { cookie: other.cookie, ...clientHeaders });
    expect(foreign.res.statusCode).toBe(404);
    expect(foreign.res.headers['content-type']).toMatch(/application\/json/);
    expect((await open(mine.id, clientHeaders)).res.statusCode).toBe(401);
    expect((await open(mine.id, { cookie: 'token=not-a-session', ...clientHeaders })).res.statusCode).toBe(401);
    expect(servedByNode).toBe(before);
  });

  it('caps streams per session, per account and per address, and frees the slots of closed streams', async () => {
    const { id, cookie, order } = await requestOfOwn('node-caps');
    const before = { hub: liveHub().size, open: streams().size };
    // One session: 30 at once, streamCaps().session open; the rest answer 429 from the API route.
    const opened = await Promise.all(Array.from({ length: 30 }, () => open(id, { cookie, ...clientHeaders })));
    expect(opened.filter((s) => s.res.statusCode === 200)).toHaveLength(streamCaps().session);
    expect(opened.filter((s) => s.res.statusCode === 429)).toHaveLength(30 - streamCaps().session);
    // The account: other sessions of the same buyer add up to streamCaps().account.
    const db = await getDb();
    const more = await Promise.all(
      [1, 2].map(async () => `token=${(await createSession(db, order.userId!, { ip: null, userAgent: null })).token}`),
    );
    const second = await Promise.all(Array.from({ length: 6 }, () => open(id, { cookie: more[0], ...clientHeaders })));
    expect(second.filter((s) => s.res.statusCode === 200)).toHaveLength(streamCaps().account - streamCaps().session);
    expect((await open(id, { cookie: more[1], ...clientHeaders })).res.statusCode).toBe(429);
    const live = [...opened, ...second].filter((s) => s.res.statusCode === 200);
    expect(streams().size).toBe(before.open + streamCaps().account);
    // Closed by their clients: listeners and slots come back, and the map opens again.
    live.forEach((s) => s.res.destroy());
    expect(await eventually(() => liveHub().size === before.hub && streams().size === before.open)).toBe(true);
    const again = await open(id, { cookie: more[1] });
    expect(again.res.statusCode).toBe(200);
    again.res.destroy();
    // The address: other buyers from the same address add up to streamCaps().address.
    await eventually(() => streams().size === before.open);
    const buyers = await Promise.all(
      Array.from({ length: streamCaps().address / streamCaps().session + 1 }, (_, i) => requestOfOwn(`node-addr-${i}`)),
    );
    const fromOneAddress = [];
    for (const b of buyers.slice(0, -1))
      for (let i = 0; i < streamCaps().session; i++) fromOneAddress.push(await open(b.id, { cookie: b.cookie }));
    expect(fromOneAddress.every((s) => s.res.statusCode === 200)).toBe(true);
    const last = buyers.at(-1)!;
    const refused = await open(last.id, { cookie: last.cookie, ...clientHeaders, 'accept-language': 'id' });
    expect(refused.res.statusCode).toBe(429);
    expect(refused.res.headers['retry-after']).toBe(String(STREAM_RETRY_S));
    fromOneAddress.forEach((s) => s.res.destroy());
    expect(await eventually(() => streams().size === before.open)).toBe(true);
  });

  it('serves every spelling of the path itself, with the same caps: x/../ and %6cive', async () => {
    const { id, cookie } = await requestOfOwn('node-spelling');
    const before = servedByNode;
    const spellings = [
      `/api_f/v1/gpsTrace/phoneLocation/x/../${id}/live`,
      `/api_f/v1/gpsTrace/phoneLocation/${id}/%6cive`,
      `/api_f/v1/gpsTrace/phoneLocation/${id}/%6C%69ve/`,
      `/api_f/v1/gpsTrace/phoneLocation/${id}/live`,
    ];
    const opened = await Promise.all(spellings.map((path) => openPath(path, { cookie })));
    expect(opened.map((s) => s.res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(servedByNode).toBe(before + 4);
    const fifth = await openPath(`/api_f/v1/gpsTrace/phoneLocation/x/../${id}/%6cive`, { cookie, ...clientHeaders });
    expect(fifth.res.statusCode).toBe(429);
    opened.forEach((s) => s.res.destroy());
    expect(canonicalPath('/a/b/../%63/%2e%2e/d?x=%6c')).toBe('/a/d');
  });

  it('hands HEAD to the API, which opens no stream (50 at once)', async () => {
    const { id, cookie } = await requestOfOwn('node-head');
    const before = { hub: liveHub().size, open: streams().size };
    const statuses = await Promise.all(
      Array.from(
        { length: 50 },
        () =>
          new Promise<number>((resolve, reject) => {
            const req = request(
              `${origin}/api_f/v1/gpsTrace/phoneLocation/${id}/live`,
              { method: 'HEAD', headers: { cookie, ...clientHeaders } },
              (res) => {
                res.resume();
                resolve(res.statusCode ?? 0);
              },
            );
            req.on('error', reject);
            req.end();
          }),
      ),
    );
    expect(statuses).toEqual(Array(50).fill(200));
    await new Promise((r) => setTimeout(r, 100));
    expect({ hub: liveHub().size, open: streams().size }).toEqual(before);
  });

  it('still ends the streams of a session gone some other way at the next session check', async () => {
    const { id, cookie } = await requestOfOwn('node-revoked');
    const stream = await open(id, { cookie });
    await eventually(() => stream.events.length > 0);
    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(cookie.slice(6))));
    await streams().tick(Date.now() + SESSION_CHECK_MS);
    await stream.ended;
    expect(stream.res.complete).toBe(true);
  });
  it('ends the streams of a session at once when it signs out, and keeps the others', async () => {
    const signedOut = await requestOfOwn('node-signout');
    const staying = await requestOfOwn('node-stays');
    const gone = await open(signedOut.id, { cookie: signedOut.cookie });
    const kept = await open(staying.id, { cookie: staying.cookie });
    await eventually(() => gone.events.length > 0 && kept.events.length > 0);
    const out = await call('DELETE', '/admin/userSession', { headers: { cookie: signedOut.cookie } });
    expect(out.status).toBe(200);
    // No session check has run: the sign-out's announcement ended it.
    expect(await eventually(() => gone.res.complete, 3_000)).toBe(true);
    expect(kept.res.destroyed).toBe(false);
    // A stream past its lifetime ends; the browser's EventSource reconnects by itself.
    await streams().tick(Date.now() + STREAM_LIFETIME_MS);
    await kept.ended;
    expect(kept.res.complete).toBe(true);
  });

  it('ends a stream when its session reaches its absolute expiry', async () => {
    const { id, order } = await requestOfOwn('node-expiry');
    const db = await getDb();
    const { token } = await createSession(db, order.userId!, { ip: null, userAgent: null });
    await db
      .update(sessions)
      .set({ absoluteExpiresAt: new Date(Date.now() + 1_500) })
      .where(eq(sessions.tokenHash, sha256(token)));
    const stream = await open(id, { cookie: `token=${token}` });
    expect(stream.res.statusCode).toBe(200);
    expect(await eventually(() => stream.res.complete, 4_000)).toBe(true);
  });
});

/** A paid buyer's location request (its id, consent code and the buyer's session cookie). */
const requestOfOwn = trialRequest;
