import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { pushEndpointQuery, pushKeyView, pushStateView, pushSubscriptionBody } from '../../../lib/contracts/push';
import { consume } from '../../services/rate-limit';
import {
  PushEndpointError,
  PushEndpointTakenError,
  hasPushEndpoint,
  pushDeviceCount,
  subscribePush,
  unsubscribePush,
  vapidKeys,
} from '../../services/messaging';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode } from '../errors';
import { requireUser } from '../middleware';
import { BAD_INPUT, SIGNED_OUT, envelope, fails, jsonResponse, ok } from '../respond';
import { bodyOf, readBody } from '../validation';

// The buyer's alerts on their devices (Web Push, RFC 8030/8291/8292): the dashboard asks the browser for a
// subscription after the user's tap, never on load, and hands it here; services/locate/buyer-alerts.ts sends through
// it.

const keyRoute = createRoute({
  method: 'get',
  path: '/push/key',
  summary: 'The application server key (VAPID public key) a browser subscribes with',
  responses: { 200: jsonResponse(envelope(pushKeyView), 'The key'), ...fails(BAD_INPUT) },
});

const stateRoute = createRoute({
  method: 'get',
  path: '/push/subscriptions',
  summary: "Whether this browser (its subscription's endpoint) gets the caller's alerts, and on how many devices",
  middleware: [requireUser] as const,
  request: { query: pushEndpointQuery.partial() },
  responses: { 200: jsonResponse(envelope(pushStateView), 'State'), ...fails({ ...SIGNED_OUT, ...BAD_INPUT }) },
});

const subscribeRoute = createRoute({
  method: 'post',
  path: '/push/subscriptions',
  summary:
    "Alerts (shared, declined, stopped, no update for 5 minutes) go to this browser too; the endpoint must be a browser vendor's push service",
  middleware: [requireUser] as const,
  request: { body: bodyOf(pushSubscriptionBody) },
  responses: {
    200: jsonResponse(envelope(pushStateView), 'Subscribed'),
    ...fails({
      ...SIGNED_OUT,
      ...BAD_INPUT,
      409: 'The endpoint belongs to another account and the keys shown are not its own: it is not moved',
      422: 'Not a subscription, or not a push service we send to (https, a browser vendor’s, public addresses only)',
      429: 'Too many changes',
      503: 'The endpoint’s name could not be resolved now; try again later',
    }),
  },
});

const unsubscribeRoute = createRoute({
  method: 'delete',
  path: '/push/subscriptions',
  summary: 'No more alerts to this browser; with no device left, alerts go by e-mail',
  middleware: [requireUser] as const,
  request: { query: pushEndpointQuery },
  responses: {
    200: jsonResponse(envelope(pushStateView), 'Unsubscribed (also when it was not subscribed)'),
    ...fails({ ...SIGNED_OUT, 429: 'Too many changes', ...BAD_INPUT }),
  },
});

/**
 * Web Push for the buyer's alerts:
 * - `GET /push/key`: the VAPID public key (services/messaging/web-push.ts `vapidKeys`), public and cacheable for an
 *   hour;
 * - `GET /push/subscriptions?endpoint=`: `{ subscribed, devices }` for the signed-in caller;
 * - `POST /push/subscriptions` (`endpoint`, `p256dh`, `auth` of `PushSubscription.toJSON()`, lib/contracts/push.ts):
 *   adds this browser; 422 `Api.pushEndpoint` when the endpoint is not https on a browser vendor's push service or its
 *   name resolves to a non-public address (the server would POST there; services/messaging/web-push.ts
 *   `checkPushEndpoint`); 409 `Api.pushEndpointTaken` when the endpoint is another account's and the keys sent are not
 *   the stored ones (only the browser holding the subscription moves it, `subscribePush`); 503 `Api.unavailable` when
 *   its name cannot be resolved now;
 * - `DELETE /push/subscriptions?endpoint=`: removes it; only the caller's own device is touched.
 * Subscribe and unsubscribe count against `pushChangesPerAccount` (429). 401 without a session.
 */
export const pushApi = new OpenAPIHono<AppEnv>()
  .openapi(keyRoute, async (c) => {
    const { publicKey } = await vapidKeys(await c.var.db());
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, { publicKey });
  })
  .openapi(stateRoute, async (c) => {
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    const { endpoint } = c.req.valid('query');
    return ok(c, {
      subscribed: endpoint ? await hasPushEndpoint(db, userId, endpoint) : false,
      devices: await pushDeviceCount(db, userId),
    });
  })
  .openapi(subscribeRoute, async (c) => {
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    const body = readBody(c, pushSubscriptionBody);
    await consume('pushChangesPerAccount', userId);
    try {
      await subscribePush(
        db,
        userId,
        { endpoint: body.endpoint, keys: { p256dh: body.p256dh, auth: body.auth } },
        c.req.header('user-agent'),
      );
    } catch (error) {
      if (error instanceof PushEndpointError) throw new ApiError(422, ErrorCode.validation, 'Api.pushEndpoint');
      if (error instanceof PushEndpointTakenError) throw new ApiError(409, ErrorCode.conflict, 'Api.pushEndpointTaken');
      // The endpoint's name could not be resolved now: nothing is refused for good, the browser may try again.
      if ((error as NodeJS.ErrnoException)?.syscall === 'getaddrinfo')
        throw new ApiError(503, ErrorCode.unavailable, 'Api.unavailable');
      throw error;
    }
    return ok(c, { subscribed: true, devices: await pushDeviceCount(db, userId) });
  })
  .openapi(unsubscribeRoute, async (c) => {
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    const { endpoint } = c.req.valid('query');
    await consume('pushChangesPerAccount', userId);
    await unsubscribePush(db, userId, endpoint);
    return ok(c, { subscribed: false, devices: await pushDeviceCount(db, userId) });
  });
