import { z } from '@hono/zod-openapi';

/** `bytes` bytes in base64url (RFC 4648, section 5), as `PushSubscription.toJSON()` gives the keys; padding tolerated. */
const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => value.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3));

/**
 * A browser's push subscription (W3C Push API `PushSubscription.toJSON()`), flattened to form fields as every call of
 * the browser client is sent: the push service URL and the keys to encrypt for it (RFC 8291: a 65-byte uncompressed
 * P-256 point and a 16-byte secret). Whether the endpoint is a push service we send to (https, a browser vendor's,
 * resolving to public addresses only) is the service's check (server/services/messaging/web-push.ts
 * `checkPushEndpoint`); the keys also prove the caller holds an endpoint another account registered (`subscribePush`).
 */
export const pushSubscriptionBody = z
  .object({ endpoint: z.url().max(1000), p256dh: base64url(65), auth: base64url(16) })
  .openapi('PushSubscription');
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

/** One browser's subscription, named by its endpoint (the query of the state and unsubscribe calls). */
export const pushEndpointQuery = z.object({ endpoint: z.url().max(1000) });

/** The application server key a browser subscribes with (RFC 8292 VAPID public key, base64url). */
export const pushKeyView = z.object({ publicKey: z.string() });
export type PushKeyView = z.infer<typeof pushKeyView>;

/** Whether this browser's endpoint gets the caller's alerts, and on how many devices they arrive in all. */
export const pushStateView = z.object({
  subscribed: z.boolean().openapi({ description: "this browser's endpoint is one of the caller's devices" }),
  devices: z.number().int().openapi({ description: 'devices with notifications on; 0: alerts go by e-mail' }),
});
export type PushStateView = z.infer<typeof pushStateView>;
