import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/server/db/client';
import { locationRequests, outboundMessages, pushSubscriptions, webPushKeys } from '@/server/db/schema';
import type { EmailProvider } from '@/server/providers/email';
import { SILENCE_ALERT_MS, alertSilentShares, liveHub } from '@/server/services/locate';
import {
  deliverOutboxMessage,
  loadVapidKeys,
  MAX_PUSH_DEVICES,
  PUSH_ATTEMPTS,
  pushEndpointAllowed,
} from '@/server/services/messaging';
import { formatPhone } from '@/lib/phone-format';
import { API, app, clientHeaders } from './support/api';
import { call } from './support/accounts';
import { trialRequest } from './support/billing';

// Web Push alerts to the buyer (shared, declined, stopped, no update for 5 minutes), delivered through the outbox to
// a real push protocol endpoint: web-push-testing, run in this process, decrypts what it receives (RFC 8291) and
// checks the VAPID signature (RFC 8292) against the key the subscription was made with. It listens on localhost,
// which the endpoint rule allows only under the tests' setting PUSH_TEST_ALLOW_LOOPBACK (server/env.ts; refused at
// start in live mode), turned on for this file before the settings are first read. tests/push-endpoints.test.ts
// checks the rule without it.
process.env.PUSH_TEST_ALLOW_LOOPBACK = 'true';

const require = createRequire(import.meta.url);
type PushModel = { new (): unknown };
type PushServer = { new (model: unknown, port: number): { startServer(): void; _server?: { close(): void } } };
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: PushModel };
const WebPushTestingServer = require('web-push-testing/src/server.js') as PushServer;

let pushBase = '';
let server: { _server?: { close(): void } } | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  const started = new WebPushTestingServer(new PushApiModel(), port);
  started.startServer();
  server = started;
  pushBase = `http://localhost:${port}`;
  for (let i = 0; i < 50; i++) {
    if ((await fetch(`${pushBase}/status`, { method: 'POST' }).catch(() => null))?.ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(() => {
  server?._server?.close();
  liveHub().close();
});

/** A browser's subscription made by the test push service for our key, as `PushSubscription.toJSON()` gives it. */
async function browserSubscription(): Promise<{
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}> {
  const key = await (await app.request(`${API}/push/key`, { headers: clientHeaders })).json();
  const res = await fetch(`${pushBase}/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ applicationServerKey: key.obj.publicKey, userVisibleOnly: 'true' }),
  });
  return (await res.json()).data;
}

/** What the test push service received for a subscription, decrypted: the service worker's payloads. */
async function received(clientHash: string): Promise<{ title: string; body: string; url: string; tag: string }[]> {
  const res = await fetch(`${pushBase}/get-notifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientHash }),
  });
  return ((await res.json()).data.messages as string[]).map((m) => JSON.parse(m));
}

/** Registers `sub` for the signed-in `cookie` as the dashboard does (its keys as form fields). */
const register = (cookie: string, sub: { endpoint: string; keys?: { p256dh: string; auth: string } }) =>
  call('POST', '/push/subscriptions', {
    headers: { cookie },
    body: { endpoint: sub.endpoint, ...(sub.keys ?? {}) },
  });
/** Turns notifications off for `endpoint`, as the dashboard does. */
const unregister = (cookie: string, endpoint: string) =>
  call('DELETE', `/push/subscriptions?endpoint=${encodeURIComponent(endpoint)}`, { headers: { cookie } });

const requestOf = async (tag: string) => {
  const trial = await trialRequest(tag);
  return { ...trial, email: trial.order.email as string };
};

const answer = (code: string, body: Record<string, string | number>) =>
  call('PUT', `/spyContent/phoneLocation/${code}`, { body, ip: '81.2.69.142' });
const share = (code: string) =>
  answer(code, { action: 'share', minutes: 60, latitude: 40.4, longitude: -3.7, accuracy: 12 });

/** Alerts queued for request `id` (push rows carry it in their payload, e-mails in the map link). */
async function alertsOf(id: string) {
  const db = await getDb();
  return db
    .select()
    .from(outboundMessages)
    .where(
      sql`(${outboundMessages.payload}->>'requestId' = ${id} or (${outboundMessages.channel} = 'email' and ${outboundMessages.body} like ${`%/map/?id=${id}%`}))`,
    )
    .orderBy(outboundMessages.createdAt);
}

/** An e-mail provider that keeps what it is given. */
function capturingEmail() {
  const sent: { to: string; subject: string }[] = [];
  const provider: EmailProvider = {
    name: 'capture',
    send: async (m) => {
      sent.push({ to: m.to, subject: m.subject });
      return `capture-${sent.length}`;
    },
  };
  return { sent, provider };
}

describe('web push alerts', () => {
  it('makes one VAPID key pair, even when 20 processes ask at once on an empty table', async () => {
    const db = await getDb();
    await db.delete(webPushKeys);
    const keys = await Promise.all(Array.from({ length: 20 }, () => loadVapidKeys(db)));
    expect(new Set(keys.map((k) => k.publicKey)).size).toBe(1);
    expect(await db.select().from(webPushKeys)).toHaveLength(1);
    expect(keys[0].subject).toMatch(/^mailto:/);
  });

  it('sends shared, stopped and declined to the buyer’s device, decrypted by the push service with our key', async () => {
    const { id, code, cookie } = await requestOf('push-flow');
    const device = await browserSubscription();
    const reg = await register(cookie, device);
    expect(reg.status).toBe(200);
    expect((await reg.json()).obj).toEqual({ subscribed: true, devices: 1 });
    const state = await app.request(`${API}/push/subscriptions?endpoint=${encodeURIComponent(device.endpoint)}`, {
      headers: { ...clientHeaders, cookie },
    });
    expect((await state.json()).obj).toEqual({ subscribed: true, devices: 1 });

    expect((await share(code)).status).toBe(200);
    expect((await answer(code, { action: 'stop' })).status).toBe(200);
    const db = await getDb();
    const rows = await alertsOf(id);
    expect(rows.map((r) => [r.channel, r.template])).toEqual([
      ['push', 'alert-shared'],
      ['push', 'alert-stopped'],
    ]);
    for (const row of rows) expect(await deliverOutboxMessage(db, row.id)).toBe('sent');
    const got = await received(device.clientHash);
    const [request] = await db.select().from(locationRequests).where(eq(locationRequests.id, id));
    expect(got.map((m) => m.title)).toEqual([
      `${formatPhone(request.targetE164)} is sharing its location`,
      `${formatPhone(request.targetE164)} stopped sharing`,
    ]);
    for (const m of got) {
      expect(m.url).toContain(`/map/?id=${id}`);
      expect(m.tag).toBe(`request-${id}`);
    }
    const [sent] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, rows[0].id));
    expect(sent).toMatchObject({ status: 'sent', provider: 'web-push', providerMessageId: '1/1 devices' });
    // No e-mail while a device takes the alerts.
    expect(rows.some((r) => r.channel === 'email')).toBe(false);

    const other = await requestOf('push-decline');
    await register(other.cookie, device);
    expect((await answer(other.code, { action: 'decline' })).status).toBe(200);
    const [declined] = await alertsOf(other.id);
    expect(declined.template).toBe('alert-declined');
    expect(await deliverOutboxMessage(db, declined.id)).toBe('sent');
    expect((await received(device.clientHash)).at(-1)!.title).toMatch(/declined your request$/);
  });

  it('e-mails by default, in the order’s language, when the buyer has no device', async () => {
    const { id, code, email } = await requestOf('push-default');
    expect((await answer(code, { action: 'decline' })).status).toBe(200);
    const rows = await alertsOf(id);
    expect(rows.map((r) => [r.channel, r.template, r.recipient])).toEqual([['email', 'sharing-declined', email]]);
    expect(rows[0].subject).toMatch(/declined your request$/);
  });

  it('announces a silent share once per silence, even to 20 upkeep runs at once', async () => {
    const { id, code } = await requestOf('push-silent');
    expect((await share(code)).status).toBe(200);
    const db = await getDb();
    const back = (ms: number) =>
      db
        .update(locationRequests)
        .set({ ownerSeenAt: new Date(Date.now() - ms) })
        .where(eq(locationRequests.id, id));
    await back(SILENCE_ALERT_MS - 30_000);
    expect(await alertSilentShares(db)).toBe(0);
    await back(SILENCE_ALERT_MS + 30_000);
    const runs = await Promise.all(Array.from({ length: 20 }, () => alertSilentShares(db)));
    const silent = (await alertsOf(id)).filter((r) => r.template === 'sharing-silent');
    expect(silent).toHaveLength(1);
    // One of the 20 runs alerted, the others found it claimed.
    expect(runs.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await alertSilentShares(db)).toBe(0);
    // The owner's page speaks again, then falls silent again: a new silence, a new alert.
    await back(SILENCE_ALERT_MS + 5_000);
    expect(await alertSilentShares(db)).toBe(1);
    // A share that ended is not announced.
    await answer(code, { action: 'stop' });
    await back(SILENCE_ALERT_MS + 1_000);
    expect(await alertSilentShares(db)).toBe(0);
  });

  it('forgets a device its push service says is gone, and e-mails the alert instead', async () => {
    const { id, code, cookie, email } = await requestOf('push-gone');
    const device = await browserSubscription();
    await register(cookie, device);
    await fetch(`${pushBase}/expire-subscription/${device.clientHash}`, { method: 'POST' });
    expect((await share(code)).status).toBe(200);
    const db = await getDb();
    const [alert] = await alertsOf(id);
    expect(alert.channel).toBe('push');
    const mail = capturingEmail();
    expect(await deliverOutboxMessage(db, alert.id, { email: mail.provider })).toBe('failed');
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual(
      [],
    );
    const [row] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, alert.id));
    expect(row.lastError).toMatch(/sent by e-mail/);
    expect(mail.sent).toEqual([{ to: email, subject: expect.stringMatching(/is sharing its location$/) }]);
    const fallback = (await alertsOf(id)).filter((r) => r.channel === 'email');
    expect(fallback.map((r) => [r.template, r.status])).toEqual([['sharing-started', 'sent']]);
  });

  it('tries an unreachable push service again, and e-mails once the attempts are used up', async () => {
    const { id, code, cookie } = await requestOf('push-down');
    const device = await browserSubscription();
    // The device's push service stops answering (a closed port on this machine).
    const down = { ...device, endpoint: `http://localhost:${await freePort()}/notify/${device.clientHash}` };
    expect((await register(cookie, down)).status).toBe(200);
    expect((await share(code)).status).toBe(200);
    const db = await getDb();
    const [alert] = await alertsOf(id);
    expect(await deliverOutboxMessage(db, alert.id)).toBe('queued');
    const [retry] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, alert.id));
    expect(retry.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    const [sub] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, down.endpoint));
    expect(sub.failures).toBe(1);
    // The retry comes due; after PUSH_ATTEMPTS the alert goes by e-mail.
    const due = () => db.update(outboundMessages).set({ nextAttemptAt: null }).where(eq(outboundMessages.id, alert.id));
    for (let attempt = 2; attempt < PUSH_ATTEMPTS; attempt++) {
      await due();
      expect(await deliverOutboxMessage(db, alert.id)).toBe('queued');
    }
    await due();
    const mail = capturingEmail();
    expect(await deliverOutboxMessage(db, alert.id, { email: mail.provider })).toBe('failed');
    expect(mail.sent).toHaveLength(1);
  });

  it('subscribes only to browser vendors’ push services, for the signed-in caller, within the device cap', async () => {
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc', false)).toBe(true);
    expect(pushEndpointAllowed('https://fcm.googleapis.com.evil.test/x', false)).toBe(false);
    expect(pushEndpointAllowed('http://localhost:8090/notify/x', false)).toBe(false);
    expect(pushEndpointAllowed('http://localhost:8090/notify/x')).toBe(true);
    expect(pushEndpointAllowed('http://169.254.169.254/latest/meta-data')).toBe(false);

    const { cookie } = await requestOf('push-rules');
    const device = await browserSubscription();
    const ssrf = await register(cookie, { ...device, endpoint: 'http://169.254.169.254/latest/meta-data' });
    expect(ssrf.status).toBe(422);
    expect((await ssrf.json()).msg).toBe("Notifications can only be sent through a browser's own push service.");
    const malformed = await register(cookie, { endpoint: device.endpoint, keys: { p256dh: 'short', auth: 'x' } });
    expect(malformed.status).toBe(422);
    const anonymous = await call('POST', '/push/subscriptions', {
      body: { endpoint: device.endpoint, ...device.keys },
    });
    expect(anonymous.status).toBe(401);

    // Another buyer cannot turn this buyer's device off.
    expect((await register(cookie, device)).status).toBe(200);
    const stranger = await requestOf('push-stranger');
    const off = await unregister(stranger.cookie, device.endpoint);
    expect((await off.json()).obj).toEqual({ subscribed: false, devices: 0 });
    const db = await getDb();
    expect(
      await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint)),
    ).toHaveLength(1);
    // The owner can.
    const mine = await unregister(cookie, device.endpoint);
    expect((await mine.json()).obj).toEqual({ subscribed: false, devices: 0 });
  });

  it('does not move a known endpoint to another account on its URL alone; the browser holding it moves it', async () => {
    const owner = await requestOf('push-owner');
    const device = await browserSubscription();
    expect((await register(owner.cookie, device)).status).toBe(200);
    const db = await getDb();
    const holder = async () =>
      (await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint)))[0];
    const stored = await holder();
    expect(stored.userId).toBe(owner.order.userId);

    // Someone who learnt the endpoint URL, with keys of their own: refused, and nothing of the owner's row changes.
    const attacker = await requestOf('push-attacker');
    const otherKeys = (await browserSubscription()).keys;
    for (const [lang, msg] of [
      [
        'en',
        'These notifications are turned on for another account. Turn notifications off in this browser, then on again, to get them on this account.',
      ],
      [
        'es',
        'Estas notificaciones están activadas para otra cuenta. Desactiva las notificaciones en este navegador y vuelve a activarlas para recibirlas en esta cuenta.',
      ],
      [
        'id',
        'Notifikasi ini aktif untuk akun lain. Matikan notifikasi di browser ini, lalu nyalakan lagi, untuk menerimanya di akun ini.',
      ],
    ]) {
      const stolen = await call('POST', '/push/subscriptions', {
        headers: { cookie: attacker.cookie, 'accept-language': lang },
        body: { endpoint: device.endpoint, ...otherKeys },
      });
      expect(stolen.status).toBe(409);
      expect((await stolen.json()).msg).toBe(msg);
    }
    // Only one of the two keys right is not enough either.
    const half = await register(attacker.cookie, {
      endpoint: device.endpoint,
      keys: { p256dh: device.keys.p256dh, auth: otherKeys.auth },
    });
    expect(half.status).toBe(409);
    expect(await holder()).toEqual(stored);
    // The owner still gets the alerts.
    expect((await share(owner.code)).status).toBe(200);
    const [alert] = await alertsOf(owner.id);
    expect(await deliverOutboxMessage(db, alert.id)).toBe('sent');
    expect((await received(device.clientHash)).at(-1)!.title).toMatch(/is sharing its location$/);

    // Another account signed in on the browser that holds the subscription (same keys): it follows that account.
    const switched = await requestOf('push-switched');
    const moved = await register(switched.cookie, device);
    expect(moved.status).toBe(200);
    expect((await moved.json()).obj).toEqual({ subscribed: true, devices: 1 });
    expect((await holder()).userId).toBe(switched.order.userId);
    const state = await app.request(`${API}/push/subscriptions?endpoint=${encodeURIComponent(device.endpoint)}`, {
      headers: { ...clientHeaders, cookie: owner.cookie },
    });
    expect((await state.json()).obj).toEqual({ subscribed: false, devices: 0 });
  });

  it('keeps at most MAX_PUSH_DEVICES devices when 25 browsers subscribe at once', async () => {
    const { cookie, order } = await requestOf('push-cap');
    const devices = await Promise.all(Array.from({ length: 25 }, () => browserSubscription()));
    const results = await Promise.all(devices.map((d) => register(cookie, d)));
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
    const db = await getDb();
    const kept = await db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, order.userId!)));
    expect(kept).toHaveLength(MAX_PUSH_DEVICES);
  });
});
