import 'server-only';
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { pushSubscriptions, users, webPushKeys } from '../db/schema';
import { env } from '../env';
import { newVapidKeys, sendPush, type PushTarget, type Vapid } from '../providers/push';

/** Devices (push subscriptions) kept per account; subscribing an eleventh drops the oldest. */
export const MAX_PUSH_DEVICES = 10;

/**
 * Push services a subscription's endpoint may point at (the browsers' own: Chrome and Android's FCM, Firefox's
 * Autopush, Apple's for Safari and iOS 16.4+ home-screen apps, Windows' WNS for Edge). The server POSTs to the endpoint,
 * so any other host would let a signed-in user make it call an address of their choosing (OWASP SSRF prevention:
 * allow-list the destinations).
 */
const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/** Thrown for an endpoint that is not a known push service's (the route answers 422 with `Api.pushEndpoint`). */
export class PushEndpointError extends Error {}

/**
 * Whether the server may send to `endpoint`: an https URL on a known push service (PUSH_SERVICE_HOSTS or a subdomain).
 * When the site itself is served over plain http (a developer's machine or the test suite, `APP_ORIGIN` http), a
 * push service on this machine (`localhost`, 127.0.0.1) is allowed too: that is where the tests' push service runs.
 */
export function pushEndpointAllowed(endpoint: string, appOrigin = env().APP_ORIGIN): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'https:' && PUSH_SERVICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) return true;
  return new URL(appOrigin).protocol === 'http:' && (host === 'localhost' || host === '127.0.0.1');
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
 * already validated by the route's schema, lib/contracts/push.ts). The endpoint must pass pushEndpointAllowed (else
 * PushEndpointError). An endpoint already known moves to this account with its new keys (a browser has one
 * subscription per key; whoever subscribed last on it gets its alerts). Past MAX_PUSH_DEVICES the oldest of the
 * account's devices are dropped. The account's row is locked for the change, so concurrent subscriptions of one
 * account keep the cap.
 */
export async function subscribePush(
  db: Db,
  userId: string,
  subscription: PushTarget,
  userAgent: string | undefined,
): Promise<void> {
  if (!pushEndpointAllowed(subscription.endpoint)) throw new PushEndpointError(subscription.endpoint);
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const values = {
      userId,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      userAgent: userAgent?.slice(0, 200) ?? null,
    };
    await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...values, createdAt: sql`now()`, failures: 0 },
      });
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
 * any transaction. A device whose push service says it is gone is deleted; a device that took it has `lastSentAt`
 * set and its failure count reset; one that failed (network, 429, 5xx) has it counted. `topic` lets a push service
 * replace an undelivered alert about the same request (RFC 8030 §5.4).
 */
export async function pushToUser(db: Db, userId: string, payload: string, topic?: string): Promise<PushFanOut> {
  const devices = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  if (!devices.length) return { sent: 0, gone: 0, failed: 0 };
  const vapid = await vapidKeys(db);
  const outcomes = await Promise.allSettled(
    devices.map((d) =>
      sendPush({ endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }, payload, vapid, { topic }),
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
