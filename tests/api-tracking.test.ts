import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { adEvents, buttonClicks, locationRequests, operationLogs, orders, outboundMessages } from '@/server/db/schema';
import { forwardAdEvent, metaConfigured } from '@/server/services/ad-events';
import { formatFunnel, funnelReport, pruneTracking } from '@/server/services/events';
import { parseEnv } from '@/server/env';
import { call } from './support/accounts';
import { API, app } from './support/api';
import { nextPhone, payCard } from './support/billing';

// A local stand-in for the Graph API: records what the forwarder posts.
const received: { url: string; body: unknown }[] = [];
const graph = createServer((req: IncomingMessage, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    received.push({ url: req.url ?? '', body: JSON.parse(raw || '{}') });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"events_received":1}');
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => graph.listen(0, '127.0.0.1', r));
  process.env.META_PIXEL_ID = '1234567890';
  process.env.META_CAPI_TOKEN = 'test-capi-token-123';
  process.env.META_GRAPH_URL = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;
});
afterAll(() => new Promise<void>((r) => graph.close(() => r())));

const token = (n: number) => n.toString(16).padStart(64, 'a');
const HASH = 'e7c4a91d';

/** `POST /operationLog` as lib/tracking/events sends it. */
function log(eventCode: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call('POST', '/operationLog', {
    body: { currDocument: '/es/?gclid=abc', domain: 'localhost:3000', eventCode, eventType: 1, ...extra },
    headers: { apk_version_code: 'fmp1.3', version: 'fmp1.3', phone_os: '3', ...headers },
  });
}

describe('operation log (docs/rules.md#entities)', () => {
  it('stores an event with its headers and tracking fields; locale from the path', async () => {
    const trackId = token(1);
    const res = await log(
      'landing_view',
      { keyword: 'phone', gclid: 'abc', apkChannel: 'GADS' },
      { track_id: trackId },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: 1, obj: { stored: true } });
    const [row] = await (await getDb()).select().from(operationLogs).where(eq(operationLogs.trackId, trackId));
    expect(row).toMatchObject({
      eventCode: 'landing_view',
      eventType: 1,
      currDocument: '/es/?gclid=abc',
      domain: 'localhost:3000',
      phoneOs: 3,
      appVersion: 'fmp1.3',
      locale: 'es',
      channel: 'GADS',
      keyword: 'phone',
      gclid: 'abc',
      source: 'browser',
    });
  });

  it('refuses unknown and server-only event codes with a localized 422, and needs website_type', async () => {
    const unknown = await log('nonsense');
    expect(unknown.status).toBe(422);
    const paid = await call('POST', '/operationLog', {
      body: { currDocument: '/', domain: 'x', eventCode: 'paid' },
      headers: { 'accept-language': 'es' },
    });
    expect(paid.status).toBe(422);
    expect((await paid.json()).msg).toMatch(/\S/);
    const noHeader = await app.request(`${API}/operationLog`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'currDocument=/&domain=x&eventCode=page_view',
    });
    expect(noHeader.status).toBe(403);
  });
});

describe('button clicks (docs/rules.md#entities)', () => {
  it('stores a click sent as a plain cross-origin form post, with the CORS header', async () => {
    const res = await app.request(`${API}/operationLog/protal`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-peer-ip': '203.0.113.9' },
      body: new URLSearchParams({ apkChannel: 'SEO', btnId: 'locate_check_vitest', os: '1' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // A refused click answers cross-origin too, so the other origin's page can read why.
    const refused = await app.request(`${API}/operationLog/protal`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-peer-ip': '203.0.113.9' },
      body: new URLSearchParams({ apkChannel: 'SEO', btnId: 'locate_check_vitest', os: '9' }),
    });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const rows = await (await getDb()).select().from(buttonClicks).where(eq(buttonClicks.btnId, 'locate_check_vitest'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ apkChannel: 'SEO', os: 1 });
  });

  it('refuses an os code outside 0, 1, 2 and stores nothing', async () => {
    const res = await call('POST', '/operationLog/protal', { body: { btnId: 'bad_os_vitest', os: 7 } });
    expect(res.status).toBe(422);
    const rows = await (await getDb()).select().from(buttonClicks).where(eq(buttonClicks.btnId, 'bad_os_vitest'));
    expect(rows).toHaveLength(0);
  });
});

describe('ad conversion events (docs/rules.md#entities, #api)', () => {
  const post = (path: string, body: unknown) =>
    app.request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', website_type: '7', 'user-agent': 'vitest-agent' },
      body: JSON.stringify(body),
    });
  const event = (name: string) => ({
    actionSource: 'website',
    eventName: name,
    eventTime: Math.floor(Date.now() / 1000),
    userData: { fbc: 'fb.1.1700000000000.clickid', fbp: 'fb.1.1700000000000.42' },
  });

  it('answers 404 for another hash and 422 for an event a week old', async () => {
    expect((await post('/api_f/v1/adEvents/wronghash', event('Lead'))).status).toBe(404);
    const old = { ...event('Lead'), eventTime: Math.floor(Date.now() / 1000) - 8 * 86_400 };
    expect((await post(`/api_f/v1/adEvents/${HASH}`, old)).status).toBe(422);
  });

  it('stores the event with the test code and forwards it to the Conversions API when configured', async () => {
    const res = await post(`/api_f/v1/adEvents/${HASH}?test=true&testEventCode=TEST123`, event('VitestPurchase'));
    expect(res.status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(adEvents).where(eq(adEvents.eventName, 'VitestPurchase'));
    expect(row).toMatchObject({
      actionSource: 'website',
      testEventCode: 'TEST123',
      userData: { fbc: 'fb.1.1700000000000.clickid', fbp: 'fb.1.1700000000000.42' },
      clientUserAgent: 'vitest-agent',
      forwardStatus: 'queued',
    });
    await forwardAdEvent(db, row!.id);
    const sent = received.find((r) => JSON.stringify(r.body).includes('VitestPurchase'));
    expect(sent?.url).toBe('/v21.0/1234567890/events?access_token=test-capi-token-123');
    expect(sent?.body).toMatchObject({
      test_event_code: 'TEST123',
      data: [
        {
          event_name: 'VitestPurchase',
          action_source: 'website',
          event_time: Math.floor(row!.eventTime.getTime() / 1000),
          user_data: {
            fbc: 'fb.1.1700000000000.clickid',
            fbp: 'fb.1.1700000000000.42',
            client_user_agent: 'vitest-agent',
          },
        },
      ],
    });
    const [after] = await db.select().from(adEvents).where(eq(adEvents.id, row!.id));
    expect(after).toMatchObject({ forwardStatus: 'sent', forwardAttempts: 1 });
  });

  it('is not forwarded without both Meta settings', () => {
    expect(metaConfigured(parseEnv({}))).toBe(false);
    expect(metaConfigured(parseEnv({ META_PIXEL_ID: '1' }))).toBe(false);
  });
});

describe('tracking retention', () => {
  it('deletes tracking rows older than the retention, keeps newer ones', async () => {
    const db = await getDb();
    const old = new Date(Date.now() - 100 * 86_400_000);
    await db.insert(buttonClicks).values({ btnId: 'retention_old', os: 2, createdAt: old });
    await db.insert(buttonClicks).values({ btnId: 'retention_new', os: 2 });
    await db
      .insert(operationLogs)
      .values({ eventCode: 'page_view', currDocument: '/', domain: 'x', trackId: token(99), createdAt: old });
    expect(await pruneTracking(db, 90)).toBeGreaterThanOrEqual(2);
    const left = await db
      .select({ btnId: buttonClicks.btnId })
      .from(buttonClicks)
      .where(like(buttonClicks.btnId, 'retention_%'));
    expect(left).toEqual([{ btnId: 'retention_new' }]);
    expect(
      await db
        .select()
        .from(operationLogs)
        .where(eq(operationLogs.trackId, token(99))),
    ).toEqual([]);
  });
});

describe('funnel report', () => {
  it('counts visitors per locale and channel from landing to shared', async () => {
    const channel = `vitest${Date.now()}`;
    const db = await getDb();
    // Three visitors land on /es/ from the channel; one lands twice (still one visit).
    for (const n of [11, 12, 13, 11]) {
      await log('landing_view', { apkChannel: channel }, { track_id: token(n) });
    }
    // Two submit a number; one of them buys with the same event token, and the owner opens and shares.
    await log('locate_submitted', { apkChannel: channel }, { track_id: token(11) });
    await log('locate_submitted', { apkChannel: channel }, { track_id: token(12) });
    const order = await call('POST', '/portal/order', {
      body: {
        email: `${channel}@example.com`,
        phone: nextPhone(),
        requesterName: 'Anna (your sister)',
        terms: true,
        startNow: true,
        locale: 'es',
        apkChannel: channel,
        keyword: 'phone',
        gclid: 'abc',
      },
      headers: { track_id: token(11) },
    });
    const { obj } = await order.json();
    expect((await payCard(obj.code, '4242424242424242')).status).toBe(200);
    const [paid] = await db.select().from(orders).where(eq(orders.code, obj.code));
    expect(paid!.attribution).toEqual({ trackId: token(11), channel, keyword: 'phone', gclid: 'abc' });
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.orderId, paid!.id));
    const [sms] = await db
      .select()
      .from(outboundMessages)
      .where(and(eq(outboundMessages.locationRequestId, request!.id), eq(outboundMessages.channel, 'sms')));
    const code = /\?c=([A-Za-z0-9_-]+)/.exec(sms!.body)![1];
    expect((await call('GET', `/spyContent/consent/${code}`)).status).toBe(200);
    expect((await call('GET', `/spyContent/consent/${code}`)).status).toBe(200);
    expect(
      (
        await call('PUT', `/spyContent/phoneLocation/${code}`, {
          body: { action: 'share', minutes: 15, latitude: 48.8584, longitude: 2.2945, accuracy: 12 },
        })
      ).status,
    ).toBe(200);

    const rows = await funnelReport(db, 7);
    const row = rows.find((r) => r.channel === channel);
    expect(row).toEqual({
      locale: 'es',
      channel,
      counts: { landing_view: 3, locate_submitted: 2, paid: 1, consent_opened: 1, shared: 1 },
    });
    expect(formatFunnel([row!], 7)).toContain(
      `es      ${channel}  3       2 (67%)           1 (50%)  1 (100%)        1 (100%)`,
    );

    // The npm script prints the same line from the same database.
    const { stdout } = await promisify(execFile)(
      'npx',
      ['tsx', '--conditions=react-server', 'server/jobs/report-funnel-cli.ts', '--days', '7'],
      { env: process.env, cwd: process.cwd() },
    );
    const line = stdout.split('\n').find((l) => l.includes(channel));
    expect(line?.split(/\s{2,}/)).toEqual(['es', channel, '3', '2 (67%)', '1 (50%)', '1 (100%)', '1 (100%)']);
  }, 60_000);
});
