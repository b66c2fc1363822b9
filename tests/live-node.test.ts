import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveLiveStream } from '@/server/api/live-node';
import { liveHub } from '@/server/services/live-hub';
import { SESSION_CHECK_MS, STREAM_LIFETIME_MS, streams } from '@/server/services/live-streams';
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

/** GET the live path over HTTP with `headers`; collects the events as they arrive. */
function open(id: string, headers: Record<string, string>): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = get(`${origin}/api_f/v1/gpsTrace/phoneLocation/${id}/live`, { headers }, (res) => {
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

  it('frees the listeners of 30 streams closed by their clients at once', async () => {
    const { id, cookie } = await requestOfOwn('node-leak');
    const before = { hub: liveHub().size, open: streams().size };
    const opened = await Promise.all(Array.from({ length: 30 }, () => open(id, { cookie })));
    await eventually(() => opened.every((s) => s.events.length > 0));
    expect(streams().size).toBe(before.open + 30);
    expect(liveHub().size).toBe(before.hub + 30);
    opened.forEach((s) => s.res.destroy());
    expect(await eventually(() => liveHub().size === before.hub && streams().size === before.open)).toBe(true);
  });

  it('ends the streams of a session signed out, at the next session check, and keeps the others', async () => {
    const signedOut = await requestOfOwn('node-signout');
    const staying = await requestOfOwn('node-stays');
    const gone = await open(signedOut.id, { cookie: signedOut.cookie });
    const kept = await open(staying.id, { cookie: staying.cookie });
    await eventually(() => gone.events.length > 0 && kept.events.length > 0);
    const out = await call('DELETE', '/admin/userSession', { headers: { cookie: signedOut.cookie } });
    expect(out.status).toBe(200);
    await streams().tick(Date.now() + SESSION_CHECK_MS);
    await gone.ended;
    expect(gone.res.complete).toBe(true);
    expect(kept.res.destroyed).toBe(false);
    // A stream past its lifetime ends; the browser's EventSource reconnects by itself.
    await streams().tick(Date.now() + STREAM_LIFETIME_MS);
    await kept.ended;
    expect(kept.res.complete).toBe(true);
  });
});

/** A paid buyer's location request (its id, consent code and the buyer's session cookie). */
const requestOfOwn = trialRequest;
