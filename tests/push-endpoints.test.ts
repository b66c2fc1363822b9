import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { pushSubscriptions } from '@/server/db/schema';
import { env, parseEnv } from '@/server/env';
import { sendPush } from '@/server/providers/push';
import { BlockedRequestError } from '@/server/net/public-address';
import {
  checkPushEndpoint,
  loadVapidKeys,
  PushEndpointError,
  pushEndpointAllowed,
  pushToUser,
} from '@/server/services/messaging';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';
import { LIVE_SETTINGS } from './support/live-settings';

// The push sender POSTs to whatever endpoint a signed-in user hands over, so the endpoint must be https on a browser
// vendor's push service whose name resolves to public addresses only, checked when subscribing and again at each
// connection (DNS can change). This file runs as a deployment does: without the tests' loopback allowance
// (PUSH_TEST_ALLOW_LOOPBACK, off by default), on the suite's plain-http origin (http://localhost:3000), the case in
// which loopback endpoints used to be let through (docs/rules.md#security).

/** Keys as a browser makes them (RFC 8291: a P-256 public point and a 16-byte secret), base64url. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

/** A resolver that answers `addresses` for every name, as a changed or hostile DNS answer would. */
const resolvesTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

// A local HTTP server standing in for anything listening on this machine (the database, an admin port): it counts
// every request that reaches it.
let local: Server;
let localPort = 0;
let hits = 0;
beforeAll(async () => {
  local = createServer((_req, res) => {
    hits++;
    res.writeHead(201).end();
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  localPort = (local.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => local.close(() => resolve())));

describe('the endpoint rule, by form', () => {
  it('is off by default, on the suite’s http origin too', () => {
    expect(env().PUSH_TEST_ALLOW_LOOPBACK).toBe(false);
    expect(env().APP_ORIGIN.startsWith('http:')).toBe(true);
  });

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://web.push.apple.com/QGx',
    'https://wns2-par02p.notify.windows.com/w/?token=x',
    'https://updates.push.services.mozilla.com/wpush/v2/x',
  ])('allows %s', (endpoint) => {
    expect(pushEndpointAllowed(endpoint, false)).toBe(true);
  });

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://fcm.googleapis.com.evil.test/x',
    'https://user:pw@fcm.googleapis.com/x',
    'http://localhost:5432/',
    'https://localhost/x',
    'http://127.0.0.1:54329/',
    'http://[::1]:5432/',
    'https://10.0.0.1/x',
    'https://192.168.1.1/x',
    'https://172.16.0.1/x',
    'https://100.64.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00::1]/x',
    'https://[fe80::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://142.250.184.10/x',
    'ftp://fcm.googleapis.com/x',
    'not a url',
  ])('refuses %s', (endpoint) => {
    expect(pushEndpointAllowed(endpoint, false)).toBe(false);
  });

  it('with the tests’ allowance, lets loopback through and nothing else of this machine or a private network', () => {
    for (const endpoint of ['http://localhost:8090/x', 'https://127.0.0.1:9/x', 'http://[::1]:8090/x']) {
      expect(pushEndpointAllowed(endpoint, true)).toBe(true);
    }
    for (const endpoint of [
      'http://10.0.0.1/x',
      'http://169.254.169.254/x',
      'http://[fd00::1]/x',
      'http://0.0.0.0/x',
    ]) {
      expect(pushEndpointAllowed(endpoint, true)).toBe(false);
    }
  });
});

describe('the endpoint rule, by where its name resolves (at subscribe time)', () => {
  const vendor = 'https://fcm.googleapis.com/fcm/send/abc';

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback IPv6', '::1'],
    ['private', '10.1.2.3'],
    ['private', '192.168.0.10'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.12.1'],
    ['unique-local IPv6', 'fd12:3456::1'],
    ['link-local IPv6', 'fe80::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['unspecified', '0.0.0.0'],
  ])('refuses a vendor name that resolves to a %s address (%s)', async (_, address) => {
    await expect(checkPushEndpoint(vendor, false, resolvesTo(address))).rejects.toBeInstanceOf(PushEndpointError);
    await expect(checkPushEndpoint(vendor, false, resolvesTo('142.250.184.10', address))).rejects.toBeInstanceOf(
      PushEndpointError,
    );
  });

  it('accepts a vendor name that resolves to public addresses only', async () => {
    await expect(
      checkPushEndpoint(vendor, false, resolvesTo('142.250.184.10', '2a00:1450:4001:82b::200a')),
    ).resolves.toBeUndefined();
  });

  it('keeps refusing private addresses under the tests’ allowance', async () => {
    await expect(checkPushEndpoint(vendor, true, resolvesTo('10.0.0.8'))).rejects.toBeInstanceOf(PushEndpointError);
    await expect(checkPushEndpoint('http://localhost:1/x', true, resolvesTo('10.0.0.8'))).rejects.toBeInstanceOf(
      PushEndpointError,
    );
  });
});

describe('POST /push/subscriptions without the allowance', () => {
  it.each([
    'http://localhost:54329/',
    'http://127.0.0.1:5432/',
    'https://localhost/x',
    'http://[::1]:5432/',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/x',
  ])('refuses %s with a localized 422 and stores nothing', async (endpoint) => {
    const { cookie } = await trialRequest('push-local');
    const res = await call('POST', '/push/subscriptions', {
      headers: { cookie, 'accept-language': 'es' },
      body: { endpoint, ...browserKeys() },
    });
    expect(res.status).toBe(422);
    expect((await res.json()).msg).toBe(
      'Las notificaciones solo pueden enviarse a través del servicio push del propio navegador.',
    );
    const db = await getDb();
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint))).toEqual([]);
  });
});

describe('sending (every connection checked again)', () => {
  it('never reaches a loopback port: a device stored before the rule is dropped without a request', async () => {
    const { order } = await trialRequest('push-stored-local');
    const db = await getDb();
    const endpoint = `http://127.0.0.1:${localPort}/stored-before-the-rule`;
    await db.insert(pushSubscriptions).values({ userId: order.userId!, endpoint, ...browserKeys() });
    const before = hits;
    const fanOut = await pushToUser(db, order.userId!, JSON.stringify({ title: 'x' }));
    expect(fanOut).toEqual({ sent: 0, gone: 1, failed: 0 });
    expect(hits).toBe(before);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint))).toEqual([]);
  });

  it('refuses at connection time a name that resolves to loopback, and an address literal, before a byte is sent', async () => {
    const vapid = await loadVapidKeys(await getDb());
    const before = hits;
    for (const endpoint of [`http://localhost:${localPort}/x`, `http://127.0.0.1:${localPort}/x`]) {
      await expect(
        sendPush({ endpoint, keys: browserKeys() }, '{}', vapid, { allowLoopback: false }),
      ).rejects.toBeInstanceOf(BlockedRequestError);
    }
    expect(hits).toBe(before);
    // The same request goes through with the tests' allowance: the refusal above is the address rule's.
    expect(
      await sendPush({ endpoint: `http://localhost:${localPort}/x`, keys: browserKeys() }, '{}', vapid, {
        allowLoopback: true,
      }),
    ).toBe('sent');
    expect(hits).toBe(before + 1);
  });
});

describe('PUSH_TEST_ALLOW_LOOPBACK is for tests only', () => {
  const live = LIVE_SETTINGS;

  it('is refused at start in live mode and with NODE_ENV=production, naming the setting', () => {
    expect(parseEnv(live).PUSH_TEST_ALLOW_LOOPBACK).toBe(false);
    expect(() => parseEnv({ ...live, PUSH_TEST_ALLOW_LOOPBACK: 'true' })).toThrow(
      /PUSH_TEST_ALLOW_LOOPBACK: tests only/,
    );
    expect(() => parseEnv({ PUSH_TEST_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' })).toThrow(
      /PUSH_TEST_ALLOW_LOOPBACK: tests only/,
    );
    expect(parseEnv({ PUSH_TEST_ALLOW_LOOPBACK: 'true', NODE_ENV: 'test' }).PUSH_TEST_ALLOW_LOOPBACK).toBe(true);
  });
});
