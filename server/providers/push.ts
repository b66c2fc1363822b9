import 'server-only';
import { isIP } from 'node:net';
import { fetch } from 'undici';
import webpush from 'web-push';
import { BlockedRequestError, isBlockedAddress, publicOnlyAgent } from '../net/public-address';

/** Where one browser receives pushes (W3C Push API `PushSubscription`): its push service URL and encryption keys. */
export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

/** The application server's identity (RFC 8292 VAPID): a contact (`mailto:` or https URL) and the P-256 key pair. */
export type Vapid = { subject: string; publicKey: string; privateKey: string };

/** What a push service answered for one message: taken, or the subscription no longer exists. */
export type PushOutcome = 'sent' | 'gone';

/** How long a push service may hold a message for an offline device (seconds): an alert older than a day is stale. */
const TTL_SECONDS = 24 * 3600;
/** Socket timeout of one push request (ms). */
const TIMEOUT_MS = 10_000;

/**
 * Sends one encrypted message (RFC 8291, aes128gcm) through the subscription's push service (RFC 8030), signed with
 * the VAPID key (RFC 8292). `topic` (≤ 32 URL-safe characters) lets the push service replace an undelivered message
 * of the same topic with this one, so a phone that was off gets the latest state, not every step.
 * The request goes only to a public address, checked when the connection is made (server/net/public-address.ts
 * `publicOnlyAgent`: the name is resolved and every address must be public unicast; an IP literal is checked as
 * such), since the endpoint's DNS answer may have changed since it was subscribed: anything else rejects with
 * BlockedRequestError before a byte is sent. `allowLoopback` (PUSH_TEST_ALLOW_LOOPBACK, tests only) lets loopback
 * addresses through for the tests' push service. Redirects are not followed: the endpoint was checked, where it points
 * to was not.
 * Resolves `gone` when the service says the subscription no longer exists or can never take a message of ours (404,
 * 410, or another 4xx but 429: RFC 8030, sections 7.3 and 5; a 403 means it was made for another key); rejects on anything
 * that may pass (429, 5xx, network, a refused address, TIMEOUT_MS without an answer), for the outbox to try again.
 */
export async function sendPush(
  target: PushTarget,
  payload: string,
  vapid: Vapid,
  options: { topic?: string; urgency?: 'normal' | 'high'; allowLoopback?: boolean } = {},
): Promise<PushOutcome> {
  const allowLoopback = options.allowLoopback ?? false;
  // web-push encrypts and signs (its documented `generateRequestDetails`); the request itself goes through undici's
  // fetch with the guarded agent, which speaks http as well as https (the tests' push service is plain http).
  const request = webpush.generateRequestDetails(target, payload, {
    vapidDetails: vapid,
    TTL: TTL_SECONDS,
    urgency: options.urgency ?? 'normal',
    ...(options.topic ? { topic: options.topic } : {}),
  });
  const url = new URL(request.endpoint);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && isBlockedAddress(literal, allowLoopback)) throw new BlockedRequestError(`address ${literal}`);
  const res = await fetch(url, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body ? new Uint8Array(request.body) : undefined,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'error',
    dispatcher: publicOnlyAgent(allowLoopback),
  }).catch((error: unknown) => {
    // undici wraps the connection's error ("fetch failed"): a refused address is named as such.
    const cause = (error as { cause?: unknown }).cause;
    throw cause instanceof BlockedRequestError ? cause : error;
  });
  await res.body?.cancel();
  if (res.ok) return 'sent';
  if (res.status >= 400 && res.status < 500 && res.status !== 429) return 'gone';
  throw new Error(`push service answered ${res.status}`);
}

/** A new VAPID key pair (P-256, base64url), made once per installation (server/services/messaging/web-push.ts). */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
