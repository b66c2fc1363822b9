import 'server-only';
import { isIP } from 'node:net';
import { and, asc, eq, notInArray, or, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Db, Tx } from '../../db/client';
import { pushSubscriptions, users, webPushKeys } from '../../db/schema';
import { env } from '../../env';
import { newVapidKeys, sendPush, type PushTarget, type Vapid } from '../../providers/push';
import { isPublicHost, systemResolve, type Resolve } from '../../net/public-address';

// Web push to the buyer's devices (W3C Push API; RFC 8030, RFC 8291 message encryption, RFC 8292 VAPID): the
// installation's keys, the `push_subscriptions` of each account and their cap, the check that an endpoint is a browser
// vendor's push service and resolves to public addresses only (OWASP SSRF Prevention Cheat Sheet; docs/rules.md,
// "Security"), and the fan-out of one alert to every device.

/** Devices (push subscriptions) kept per account; subscribing an eleventh drops the oldest. */
export const MAX_PUSH_DEVICES = 10;

/**
 * Push services a subscription's endpoint may point at (the browsers' own: Chrome and Android's FCM, Firefox's
 * Autopush, Apple's for Safari and iOS 16.4+ home-screen apps, Windows' WNS for Edge). The server POSTs to the endpoint,
 * so any other host would let a signed-in user make it call an address of their choosing (OWASP SSRF Prevention Cheat
 * Sheet: allow-list the destinations, and refuse internal addresses whatever the name).
 */
const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/** Thrown for an endpoint the server may not send to (the route answers 422 with `Api.pushEndpoint`). */
export class PushEndpointError extends Error {}

/**
 * Thrown when the endpoint belongs to another account and the caller did not show its keys (the route answers 409
 * with `Api.pushEndpointTaken`): see `subscribePush`.
 */
export class PushEndpointTakenError extends Error {}

/** Loopback host names and literals the tests' push service is reached by, under PUSH_TEST_ALLOW_LOOPBACK only. */
function isLoopbackHost(host: string): boolean {
  const literal = host.replace(/^\[|\]$/g, '');
  if (literal === 'localhost') return true;
  return isIP(literal) !== 0 && ipaddr.parse(literal).range() === 'loopback';
}

/**
 * Whether the server may send to `endpoint`, by its form (no network): an https URL on the default port, without
 * credentials, on a known push service (PUSH_SERVICE_HOSTS or a subdomain; never an IP literal). With `allowLoopback`
 * (the setting PUSH_TEST_ALLOW_LOOPBACK, tests only: refused at start in live mode, server/env.ts) an http or https URL
 * on `localhost`, 127.0.0.0/8 or `[::1]`, any port, is allowed too: that is where the tests' push service runs.
 * Nothing else on this machine or a private network is ever allowed, whatever the site's origin. Where the name
 * resolves is checked by `checkPushEndpoint` (subscribe) and by the sender's connection (../providers/push.ts).
 */
export function pushEndpointAllowed(
  endpoint: string,
  allowLoopback: boolean = env().PUSH_TEST_ALLOW_LOOPBACK,
): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (allowLoopback && (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(host)) return true;
  if (url.protocol !== 'https:' || url.port !== '' || isIP(host.replace(/^\[|\]$/g, ''))) return false;
  return PUSH_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

/**
 * Refuses (PushEndpointError) an endpoint the server may not send to: its form (`pushEndpointAllowed`), then where its
 * name resolves now: every address must be public (server/net/public-address.ts: no loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast or reserved address, nor an IPv6 form of one; loopback only
 * with `allowLoopback`). A name that cannot be resolved rejects with the resolver's error (the route answers 503: try
 * again later). `resolve`: the system resolver, or a test's. The sender checks again at each connection, since a
 * DNS answer can change after subscribing.
 */
export async function checkPushEndpoint(
  endpoint: string,
  allowLoopback: boolean = env().PUSH_TEST_ALLOW_LOOPBACK,
  resolve: Resolve = systemResolve,
): Promise<void> {
  if (!pushEndpointAllowed(endpoint, allowLoopback)) throw new PushEndpointError(endpoint);
  if (!(await isPublicHost(new URL(endpoint).hostname, allowLoopback, resolve))) throw new PushEndpointError(endpoint);
}

let cached: Promise<Vapid> | undefined;

/**
 * The installation's VAPID keys (RFC 8292), read from `web_push_keys`, or made and stored when there are none
 * (INSERT … ON CONFLICT DO NOTHING, then read back, so processes starting together agree on one pair). The subject is
 * the support address (`mailto:`), which push services use to reach the sender.
 */
export async function loadVapidKeys(db: Db): Promise<Vapid> {
  const made = newVapidKeys();
  await db
    .insert(webPushKeys)
    .values({ id: 1, ...made })
    .onConflictDoNothing();
  const [row] = await db.select().from(webPushKeys).where(eq(webPushKeys.id, 1));
  return { subject: `mailto:${env().SUPPORT_EMAIL}`, publicKey: row.publicKey, privateKey: row.privateKey };
}

/** loadVapidKeys, once per process (a failed load is tried again at the next call). */
export function vapidKeys(db: Db): Promise<Vapid> {
  cached ??= loadVapidKeys(db).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/**
 * Registers this browser's subscription for `userId` (W3C Push API `PushSubscription.toJSON()`: endpoint and keys,
 * already validated by the route's schema, lib/contracts/push.ts). The endpoint must pass `checkPushEndpoint` (else
 * PushEndpointError, or the resolver's error), checked before the transaction (docs/decisions/0009: no network call
 * inside a transaction).
 *
 * An endpoint already known stays with its account unless the caller shows it holds the subscription: the same
 * `p256dh` and `auth` as stored, which only the browser that made the subscription has (RFC 8291, section 3: the keys are the
 * browser's own). Then it moves to the caller: one browser, one subscription, and it follows whoever signs in on that
 * browser and turns alerts on (someone who switches accounts on their browser expects that). Knowing the endpoint URL
 * alone moves nothing: PushEndpointTakenError (409). The caller's own endpoint takes new keys.
 *
 * Past MAX_PUSH_DEVICES the oldest of the account's devices are dropped. The account's row is locked for the change,
 * so concurrent subscriptions of one account keep the cap.
 */
export async function subscribePush(
  db: Db,
  userId: string,
  subscription: PushTarget,
  userAgent: string | undefined,
  resolve: Resolve = systemResolve,
): Promise<void> {
  await checkPushEndpoint(subscription.endpoint, env().PUSH_TEST_ALLOW_LOOPBACK, resolve);
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const values = {
      userId,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      userAgent: userAgent?.slice(0, 200) ?? null,
    };
    const [saved] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...values, createdAt: sql`now()`, failures: 0 },
        setWhere: or(
          eq(pushSubscriptions.userId, userId),
          and(eq(pushSubscriptions.p256dh, values.p256dh), eq(pushSubscriptions.auth, values.auth)),
        ),
      })
      .returning({ id: pushSubscriptions.id });
    if (!saved) throw new PushEndpointTakenError(subscription.endpoint);
    const keep = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(sql`${pushSubscriptions.createdAt} desc`)
      .limit(MAX_PUSH_DEVICES);
    await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep)));
  });
}

/** Removes `userId`'s subscription at `endpoint` (notifications turned off on that browser). True when one was removed. */
export async function unsubscribePush(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

/** How many devices `userId` gets pushes on (0: alerts go by e-mail). */
export async function pushDeviceCount(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return row.n;
}

/** Whether `endpoint` is one of `userId`'s devices (the dashboard shows "on" only for a browser that is). */
export async function hasPushEndpoint(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const [row] = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
  return !!row;
}

/** What a push to every device of an account did: devices that took it, devices gone (removed), devices that failed. */
export type PushFanOut = { sent: number; gone: number; failed: number; lastError?: string };

/**
 * Sends `payload` (the JSON the service worker shows, public/sw.js) to every device of `userId`, in parallel, outside
 * any transaction. A device whose endpoint the rule no longer allows (`pushEndpointAllowed`: one stored before it, or
 * on this machine without the tests' allowance) is deleted without a request. The sender connects only to public
 * addresses, checked at each connection (../providers/push.ts), so an endpoint whose name now resolves to a private
 * address fails without reaching it. A device whose push service says it is gone is deleted; a device that took it
 * has `lastSentAt` set and its failure count reset; one that failed (network, refused address, 429, 5xx) has it
 * counted. `topic` lets a push service replace an undelivered alert about the same request (RFC 8030, section 5.4).
 */
export async function pushToUser(db: Db, userId: string, payload: string, topic?: string): Promise<PushFanOut> {
  const devices = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  if (!devices.length) return { sent: 0, gone: 0, failed: 0 };
  const vapid = await vapidKeys(db);
  const allowLoopback = env().PUSH_TEST_ALLOW_LOOPBACK;
  const outcomes = await Promise.allSettled(
    devices.map(async (d) =>
      pushEndpointAllowed(d.endpoint, allowLoopback)
        ? sendPush({ endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }, payload, vapid, {
            topic,
            allowLoopback,
          })
        : ('gone' as const),
    ),
  );
  const result: PushFanOut = { sent: 0, gone: 0, failed: 0 };
  await Promise.all(
    outcomes.map(async (outcome, i) => {
      const device = devices[i];
      if (outcome.status === 'fulfilled' && outcome.value === 'sent') {
        result.sent++;
        await db
          .update(pushSubscriptions)
          .set({ lastSentAt: new Date(), failures: 0 })
          .where(eq(pushSubscriptions.id, device.id));
      } else if (outcome.status === 'fulfilled') {
        result.gone++;
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
      } else {
        result.failed++;
        result.lastError = String((outcome.reason as Error)?.message ?? outcome.reason).slice(0, 300);
        await db
          .update(pushSubscriptions)
          .set({ failures: sql`${pushSubscriptions.failures} + 1` })
          .where(eq(pushSubscriptions.id, device.id));
      }
    }),
  );
  return result;
}
