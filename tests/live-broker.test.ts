import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getDb } from '@/server/db/client';
import {
  DEAF_POLL_MS,
  type LiveBroker,
  type LiveEvent,
  LiveHub,
  createLiveBroker,
  liveHub,
  redisConnection,
  streams,
} from '@/server/services/locate';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';
import { collect, openStream, until } from './support/live-stream';
import { hasRedis, startRedis, type TestRedis } from './support/redis';

// The live broker's two engines (docs/decisions/0019-live-broker.md), put through the same tests: PostgreSQL's NOTIFY
// (the default) and Redis Streams (REDIS_URL), on a real redis-server this file starts. Two hubs in this process stand
// for two app processes: each has its own connections, and a stream is held by the hub it subscribed to. The broker
// that announces is the API's, as in the process that took the fix.

const HUB = Symbol.for('app.liveHub');
const BROKER = Symbol.for('app.liveBroker');
const g = globalThis as unknown as Record<symbol, LiveHub | LiveBroker | undefined>;

if (!hasRedis)
  console.warn('redis-server is not installed (apt-get install redis-server): the Redis engine is skipped');

/** Waits until `check` holds (polling every 20 ms, at most `ms`). */
async function eventually(check: () => boolean, ms = 8_000) {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

const put = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });

/** The owner shares (its first fix at 40.4) and then moves: fix `i` at latitude 40.4 + i / 1000. */
const latitudeOf = (i: number) => Math.round((40.4 + i / 1000) * 1e6) / 1e6;
const share = (code: string) =>
  put(code, { action: 'share', minutes: 60, latitude: 40.4, longitude: -3.7, accuracy: 9 });
const move = (code: string, i: number) =>
  put(code, { action: 'position', latitude: latitudeOf(i), longitude: -3.7, accuracy: 9 });

/** Opens a buyer's stream held by `hub` (as if served by that hub's process), and collects its events. */
async function streamOn(hub: LiveHub, id: string, cookie: string, lastEventId?: string) {
  const own = g[HUB];
  g[HUB] = hub;
  try {
    const stream = await openStream(id, cookie, lastEventId);
    expect(stream.status).toBe(200);
    // The first event comes after the stream subscribed (the trace, or on a resume the positions after it).
    const first = await stream.next(10_000);
    expect(first).not.toBeNull();
    const collected = collect(stream);
    collected.events.push(first!);
    return collected;
  } finally {
    g[HUB] = own;
  }
}

/**
 * Every latitude in `moves` reached the stream exactly once (as a `position` event, or in a `trace` the stream sent
 * again after its hub lost its connection), and the `position` events' ids only grow: nothing lost, nothing doubled.
 */
function receivedOnce(stream: ReturnType<typeof collect>, moves: number[]): boolean {
  const traced = stream.events
    .filter((e) => e.event === 'trace')
    .flatMap((e) => (JSON.parse(e.data) as { positions: { id: number; latitude: number }[] }).positions);
  const sent = stream.positions();
  const ids = sent.map((p) => p.id);
  if (ids.some((id, i) => i > 0 && id <= ids[i - 1])) return false;
  return moves.every((i) => {
    const times = sent.filter((p) => p.latitude === latitudeOf(i)).length;
    return times === 1 || (times === 0 && traced.some((p) => p.latitude === latitudeOf(i)));
  });
}

/** Each test's time limit (ms): a stream's first open in a file warms the app up, slow on a busy machine. */
const LIMIT_MS = 60_000;

const engines = [
  { engine: 'postgres' as const, skip: false },
  { engine: 'redis' as const, skip: !hasRedis },
];

describe.each(engines)('the live broker on $engine', ({ engine, skip }) => {
  let redis: TestRedis | null = null;
  let redisUrl: string | null = null;
  /** The second app process's hub (the first is the API's own, `liveHub()`). */
  let other: LiveHub;

  beforeAll(async () => {
    if (skip) return;
    if (engine === 'redis') {
      redis = await startRedis();
      redisUrl = redis.url;
    }
    await (g[HUB] as LiveHub | undefined)?.close();
    await (g[BROKER] as LiveBroker | undefined)?.close();
    g[HUB] = new LiveHub(undefined, redisUrl);
    g[BROKER] = createLiveBroker(redisUrl);
    other = new LiveHub(undefined, redisUrl);
  });

  afterAll(async () => {
    if (skip) return;
    streams().closeAll();
    await liveHub().close();
    await (g[BROKER] as LiveBroker).close();
    await other.close();
    delete g[HUB];
    delete g[BROKER];
    await redis?.stop();
  });

  it.skipIf(skip)(
    'runs on the engine the setting chose',
    () => {
      expect(liveHub().engine).toBe(engine);
      expect((g[BROKER] as LiveBroker).engine).toBe(engine);
    },
    LIMIT_MS,
  );

  it.skipIf(skip)(
    'brings each position to the streams held by two processes, once each, in order',
    async () => {
      const { id, code, cookie } = await trialRequest(`broker-${engine}-two`);
      const here = await streamOn(liveHub(), id, cookie);
      const there = await streamOn(other, id, cookie);
      expect((await share(code)).status).toBe(200);
      const moves = [1, 2, 3, 4, 5];
      for (const i of moves) expect((await move(code, i)).status).toBe(200);
      for (const stream of [here, there]) {
        expect(await eventually(() => stream.positions().filter((p) => p.source === 'gps').length === 6)).toBe(true);
        expect(receivedOnce(stream, moves)).toBe(true);
        expect(stream.positions().map((p) => p.latitude)).toEqual(
          expect.arrayContaining([40.4, ...moves.map(latitudeOf)]),
        );
        await stream.stop();
      }
    },
    LIMIT_MS,
  );

  it.skipIf(skip)(
    'resumes after Last-Event-ID with nothing lost or doubled, then goes on live',
    async () => {
      const { id, code, cookie } = await trialRequest(`broker-${engine}-resume`);
      expect((await share(code)).status).toBe(200);
      const first = await openStream(id, cookie);
      const trace = JSON.parse((await until(first, 'trace'))!.data) as { positions: { id: number }[] };
      const lastSeen = Math.max(...trace.positions.map((p) => p.id));
      first.close();
      // Three fixes while the buyer's phone was offline, then it comes back on the other process.
      for (const i of [1, 2, 3]) expect((await move(code, i)).status).toBe(200);
      const again = await streamOn(other, id, cookie, String(lastSeen));
      for (const i of [4, 5]) expect((await move(code, i)).status).toBe(200);
      expect(await eventually(() => again.positions().length >= 5)).toBe(true);
      await new Promise((r) => setTimeout(r, 200)); // nothing more comes
      expect(again.positions().map((p) => p.latitude)).toEqual([1, 2, 3, 4, 5].map(latitudeOf));
      expect(again.positions().every((p) => p.id > lastSeen)).toBe(true);
      expect(receivedOnce(again, [1, 2, 3, 4, 5])).toBe(true);
      await again.stop();
    },
    LIMIT_MS,
  );

  it.skipIf(skip)(
    'loses nothing when the broker restarts under open streams',
    async () => {
      const { id, code, cookie } = await trialRequest(`broker-${engine}-restart`);
      const here = await streamOn(liveHub(), id, cookie);
      const there = await streamOn(other, id, cookie);
      expect((await share(code)).status).toBe(200);
      for (const i of [1, 2]) expect((await move(code, i)).status).toBe(200);
      for (const s of [here, there]) expect(await eventually(() => receivedOnce(s, [1, 2]))).toBe(true);

      if (redis) {
        await redis.kill();
        // The hubs notice, say so on health, and read on a timer: fixes made meanwhile still arrive.
        expect(await eventually(() => liveHub().hearing === 'deaf' && other.hearing === 'deaf')).toBe(true);
        const health = await (await call('GET', '/health')).json();
        expect(health.obj).toMatchObject({ live: 'deaf', broker: 'redis' });
        for (const i of [3, 4, 5]) expect((await move(code, i)).status).toBe(200);
        for (const s of [here, there])
          expect(await eventually(() => receivedOnce(s, [1, 2, 3, 4, 5]), DEAF_POLL_MS * 3)).toBe(true);
        await redis.restart();
        // ioredis reconnects with its backoff (at most 5 s apart).
        expect(await eventually(() => liveHub().hearing !== 'deaf' && other.hearing !== 'deaf', 12_000)).toBe(true);
      } else {
        // The listeners' connections dropped (as a failover or a restart of PostgreSQL does to them).
        const db = await getDb();
        await db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = 'live-hub' and datname = current_database()`,
        );
        for (const i of [3, 4, 5]) expect((await move(code, i)).status).toBe(200);
      }
      // Back: fixes arrive as they come, not on a timer.
      for (const i of [6, 7, 8]) expect((await move(code, i)).status).toBe(200);
      const all = [1, 2, 3, 4, 5, 6, 7, 8];
      for (const s of [here, there]) {
        expect(await eventually(() => receivedOnce(s, all), DEAF_POLL_MS)).toBe(true);
        await new Promise((r) => setTimeout(r, 200));
        expect(receivedOnce(s, all)).toBe(true);
        await s.stop();
      }
    },
    LIMIT_MS,
  );

  it.skipIf(skip)(
    'hears 50 announcements made at once by two processes, each once',
    async () => {
      const ids = Array.from({ length: 50 }, () => randomUUID());
      const heard = new Map<LiveHub, LiveEvent[]>([
        [liveHub(), []],
        [other, []],
      ]);
      const unsubscribe: (() => void)[] = [];
      for (const [hub, events] of heard)
        for (const id of ids) unsubscribe.push(await hub.subscribe(id, (e) => events.push(e)));
      const brokers = [createLiveBroker(redisUrl), createLiveBroker(redisUrl)];
      await Promise.all(
        ids.map(async (id, i) => {
          await new Promise((r) => setImmediate(r));
          brokers[i % 2].announce(id, 1_000 + i);
        }),
      );
      for (const [, events] of heard) {
        expect(await eventually(() => events.length >= ids.length)).toBe(true);
        await new Promise((r) => setTimeout(r, 100)); // nothing more comes
        const got = events.flatMap((e) => (e.k === 'n' ? [[e.r, e.id] as const] : [])).sort((a, b) => a[1] - b[1]);
        expect(got).toEqual(ids.map((r, i) => [r, 1_000 + i]));
      }
      for (const off of unsubscribe) off();
      await Promise.all(brokers.map((b) => b.close()));
    },
    LIMIT_MS,
  );
});

describe("the Redis engine's connection", () => {
  it('rejects a command that a hung server (connection accepted, nothing answered) never answers, after its timeout', async () => {
    // A server that accepts and reads, and never writes a byte: a Redis stuck in a long command or a half-open proxy.
    const sockets: Socket[] = [];
    const hung = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', () => {});
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const { port } = hung.address() as AddressInfo;
    const client = redisConnection(`redis://127.0.0.1:${port}`, 'test-hung', 300);
    try {
      const started = Date.now();
      await expect(client.xadd('live:test', '*', 'p', '1')).rejects.toThrow(/timed out/i);
      // Rejected at the timeout, not after a reconnection cycle or never.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});
