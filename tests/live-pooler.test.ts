import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { DEAF_POLL_MS, LIVE_CHANNEL, LiveHub, liveHub, type LiveEvent } from '@/server/services/locate';
import { API, app, clientHeaders } from './support/api';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';
import { hasPgBouncer, startPgBouncer } from './support/pgbouncer';

// The live hub behind a transaction pooler (pgbouncer.org, "Features": LISTEN is not supported in transaction mode):
// a real PgBouncer in transaction mode in front of the test database. LISTENing through it hears nothing, silently;
// the hub finds out with its probe, says so (health `live: deaf`), and its streams read what they missed instead, so
// no position is lost. A hub on a direct connection (DATABASE_SESSION_URL) hears everything.

const HUB = Symbol.for('app.liveHub');
const g = globalThis as unknown as Record<symbol, LiveHub | undefined>;

let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | null = null;

beforeAll(async () => {
  if (hasPgBouncer) bouncer = await startPgBouncer(process.env.DATABASE_URL!);
});

afterAll(async () => {
  await g[HUB]?.close();
  await bouncer?.stop();
});

/** Waits until `check` holds (polling every 20 ms, at most `ms`). */
async function eventually(check: () => boolean, ms = 8_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe.skipIf(!hasPgBouncer)('the live hub behind PgBouncer in transaction mode', () => {
  it('a notice sent through the pooler reaches a hub on a direct connection; one LISTENing through it hears nothing', async () => {
    const direct = new LiveHub(process.env.DATABASE_URL!);
    const pooled = new LiveHub(bouncer!.url);
    const heard: Record<string, LiveEvent[]> = { direct: [], pooled: [] };
    const id = '00000000-0000-4000-8000-00000000b0b0';
    await direct.subscribe(id, (e) => heard.direct.push(e));
    await pooled.subscribe(id, (e) => heard.pooled.push(e));
    expect(await direct.probe()).toBe('hearing');
    expect(await pooled.probe()).toBe('deaf');
    // A fix's notice committed through the pooler, as an app process behind it commits one.
    const writer = new pg.Client({ connectionString: bouncer!.url });
    await writer.connect();
    await writer.query('begin');
    await writer.query('select pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ k: 'resync', r: id })]);
    await writer.query('commit');
    await writer.end();
    expect(await eventually(() => heard.direct.length > 0)).toBe(true);
    // The deaf hub tells its streams to read what they missed, every DEAF_POLL_MS.
    expect(await eventually(() => heard.pooled.some((e) => e.k === 'poll'), DEAF_POLL_MS * 3)).toBe(true);
    expect(heard.pooled.some((e) => e.k === 'resync')).toBe(false);
    await direct.close();
    await pooled.close();
  });

  it('a buyer’s stream whose hub hears nothing still gets every position, in order, and health says deaf', async () => {
    await liveHub().close();
    g[HUB] = new LiveHub(bouncer!.url);
    const { id, code, cookie } = await trialRequest('live-pooler');
    const res = await app.request(`${API}/gpsTrace/phoneLocation/${id}/live`, {
      headers: { ...clientHeaders, cookie },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        text += new TextDecoder().decode(chunk.value);
      }
    })();
    const put = (body: Record<string, string | number>) =>
      call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
    expect((await put({ action: 'share', minutes: 60, latitude: 40.4, longitude: -3.7, accuracy: 12 })).status).toBe(
      200,
    );
    const sent: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const answer = await put({ action: 'position', latitude: 40.4 + i / 100, longitude: -3.7, accuracy: 12 });
      expect(answer.status).toBe(200);
      sent.push(40.4 + i / 100);
    }
    const positions = () =>
      [...text.matchAll(/event: position\ndata: (.*)\nid: (\d+)/g)].map((m) => ({
        latitude: JSON.parse(m[1]).latitude as number,
        id: Number(m[2]),
      }));
    const fixes = () => positions().filter((p) => sent.includes(p.latitude));
    expect(await eventually(() => fixes().length >= 5, DEAF_POLL_MS * 4)).toBe(true);
    // Every fix once, in the order sent (besides the share's first fix and its IP area), none doubled.
    expect(fixes().map((p) => p.latitude)).toEqual(sent);
    const ids = positions().map((p) => p.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    const health = await (await call('GET', '/health')).json();
    expect(health.obj.live).toBe('deaf');
    await reader.cancel();
    await read.catch(() => {});
  });
});
