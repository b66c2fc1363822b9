import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { env } from '../../env';
import {
  askFreshFix,
  askMoreTime,
  clearPositions,
  consentSmsText,
  listRequests,
  markNotificationsSeen,
  notificationsSeenAt,
  notificationsTotal,
  quotaOf,
  renewConsentLink,
  requestLocation,
  requestWithPositions,
} from '../../services/locate';
import type { AppEnv } from '../context';
import { readBrowserKey } from '../offer-browser-cookie';
import { notFound } from '../errors';
import { e164Of } from '../phone';
import { requireUser } from '../middleware';
import { BAD_INPUT, SIGNED_OUT, created, envelope, fails, jsonResponse, ok, okPage } from '../respond';
import {
  SMS_TEXTS,
  locationTraceSchema,
  moreTimeAskSchema,
  newRequestBody,
  newRequestSchema,
  renewLinkBody,
  renewedLinkSchema,
  requestIdParams,
  requestPageQuery,
  requestPageSchema,
  notificationsSeenSchema,
  refreshAskedSchema,
  smsTextsSchema,
} from '../../../lib/contracts/locations';
import { bodyOf, readBody } from '../validation';
import { languages } from '../../../i18n/routing';

// The subscriber's side of location requests: every route needs a session and reads only the caller's rows.

// GET /api_f/v1/spyContent - the subscriber's location requests, paged
const listRoute = createRoute({
  method: 'get',
  path: '/spyContent',
  summary: "The caller's location requests, newest first (page envelope)",
  middleware: [requireUser] as const,
  request: {
    query: requestPageQuery,
  },
  responses: {
    200: jsonResponse(
      z.object({
        success: z.literal(1),
        msg: z.string(),
        page: requestPageSchema,
      }),
      'Page',
    ),
    ...fails(SIGNED_OUT),
  },
});

// POST /api_f/v1/spyContent/notifications/seen - the subscriber has seen their notifications
const seenRoute = createRoute({
  method: 'post',
  path: '/spyContent/notifications/seen',
  summary: 'Marks status changes and positions up to now as seen (notificationsTotal back to 0)',
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(envelope(notificationsSeenSchema), 'Seen'),
    ...fails(SIGNED_OUT),
  },
});

// GET /api_f/v1/gpsTrace/phoneLocation/{id} - one own request with its positions
const traceRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/phoneLocation/{id}',
  summary: "One of the caller's requests with its newest positions; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: requestIdParams },
  responses: {
    200: jsonResponse(envelope(locationTraceSchema), 'Request'),
    ...fails({ ...SIGNED_OUT, 404: 'Not found or not yours' }),
  },
});

// POST /api_f/v1/spyContent/phoneLocation - a subscriber requests a number's location
const createRoute_ = createRoute({
  method: 'post',
  path: '/spyContent/phoneLocation',
  summary:
    'New location request (phone, requester name shown to the owner (2–40 characters, no links or numbers), optional note to the owner (≤ 140 characters, same rules, shown on the consent page only), optional country for national numbers, SMS text id). Needs a trialing or active subscription (403), a quota credit (403) and the SMS guards (403 opted out or country, 429 daily caps).',
  middleware: [requireUser] as const,
  request: { body: bodyOf(newRequestBody) },
  responses: {
    201: jsonResponse(envelope(newRequestSchema), 'Created; the consent SMS is queued'),
    ...fails({
      ...SIGNED_OUT,
      403: 'No subscription, quota used, number opted out or country not allowed',
      429: 'Daily SMS limit',
      ...BAD_INPUT,
    }),
  },
});

// GET /api_f/v1/multilingualWord/one/3/phone_text - the consent SMS texts a buyer may choose
const textsRoute = createRoute({
  method: 'get',
  path: '/multilingualWord/one/3/phone_text',
  summary: 'The consent SMS texts per language; {link} stands for the consent link',
  responses: { 200: jsonResponse(envelope(smsTextsSchema), 'Texts') },
});

// POST /api_f/v1/spyContent/phoneLocation/{id}/link - a new consent link for an unanswered own request
const linkRoute = createRoute({
  method: 'post',
  path: '/spyContent/phoneLocation/{id}/link',
  summary:
    'A new consent link (shown once; the previous one stops working) for an own request not answered yet, e.g. when its SMS was refused or not delivered; send=true also sends the SMS again under the usual guards (403/422/429). 409 once the request has ended.',
  middleware: [requireUser] as const,
  request: { params: requestIdParams, body: bodyOf(renewLinkBody) },
  responses: {
    200: jsonResponse(envelope(renewedLinkSchema), 'New link'),
    ...fails({ ...SIGNED_OUT, 404: 'Not found or not yours', 409: 'The request has ended', ...BAD_INPUT }),
  },
});

// POST /api_f/v1/spyContent/clear/{id} - delete the positions of one own request
const clearRoute = createRoute({
  method: 'post',
  path: '/spyContent/clear/{id}',
  summary: "Deletes every position of one of the caller's requests; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: requestIdParams },
  responses: {
    200: jsonResponse(envelope(z.object({ deleted: z.number().int() })), 'Positions deleted'),
    ...fails({ ...SIGNED_OUT, 404: 'Not found or not yours' }),
  },
});

// POST /api_f/v1/gpsTrace/phoneLocation/{id}/more-time - ask the owner for more time, once per share
const moreTimeRoute = createRoute({
  method: 'post',
  path: '/gpsTrace/phoneLocation/{id}/more-time',
  summary:
    "Asks the phone's owner for more time on a running share of one of the caller's requests, once per share: the owner's open page shows the ask with Accept and No, and nothing changes until the owner taps; no SMS is sent. The answer reaches the map as a `state` event (`moreTime`). 409 when no share runs or the ask was made already in this share; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: requestIdParams },
  responses: {
    200: jsonResponse(envelope(moreTimeAskSchema), 'Asked'),
    ...fails({ ...SIGNED_OUT, 404: 'Not found or not yours', 409: 'No share runs, or already asked in this share' }),
  },
});

// POST /api_f/v1/gpsTrace/phoneLocation/{id}/refresh - "Refresh now": one high-accuracy fix from the owner's open page
const refreshRoute = createRoute({
  method: 'post',
  path: '/gpsTrace/phoneLocation/{id}/refresh',
  summary:
    "Refresh now: asks the owner's open page of one of the caller's running shares for one high-accuracy fix (it learns of it with its next heartbeat, every 20 s, and the fix reaches the map as a `position` event). At most once every 30 s per request (429 `Api.refreshWait`); 409 when no share runs; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: requestIdParams },
  responses: {
    200: jsonResponse(envelope(refreshAskedSchema), 'Asked'),
    ...fails({ ...SIGNED_OUT, 404: 'Not found or not yours', 409: 'No share runs', 429: 'Asked less than 30 s ago' }),
  },
});

export const locationsApi = new OpenAPIHono<AppEnv>()
  .openapi(listRoute, async (c) => {
    const { pageNum, pageSize } = c.req.valid('query');
    const db = await c.var.db();
    const userId = c.get('user')!.id;
    // One read of when the subscriber last looked serves the rows' `updated` and the total.
    const since = await notificationsSeenAt(db, userId);
    const [page, quota, notifications] = await Promise.all([
      listRequests(db, userId, pageNum, pageSize, since),
      quotaOf(db, userId),
      notificationsTotal(db, userId, since),
    ]);
    return okPage(c, {
      ...page,
      quota: quota ? { used: quota.used, total: quota.quota } : null,
      notificationsTotal: notifications,
    });
  })
  .openapi(seenRoute, async (c) => {
    await markNotificationsSeen(await c.var.db(), c.get('user')!.id);
    return ok(c, { notificationsTotal: 0 as const });
  })
  .openapi(traceRoute, async (c) => {
    const found = await requestWithPositions(await c.var.db(), c.get('user')!.id, c.req.valid('param').id);
    if (!found) throw notFound();
    return ok(c, found);
  })
  .openapi(createRoute_, async (c) => {
    const { phone, country, ...body } = readBody(c, newRequestBody);
    const e164 = e164Of(phone, country);
    const { requestId, link } = await requestLocation(await c.var.db(), c.get('user')!.id, {
      ...body,
      e164,
      // Who asks, beyond the account: this browser and address (the owner's protections follow them).
      marks: { device: readBrowserKey(c), address: c.get('clientIp') ?? null },
    });
    return created(c, { id: requestId, link });
  })
  .openapi(textsRoute, (c) =>
    ok(
      c,
      languages.flatMap((locale) =>
        SMS_TEXTS.map((id) => ({
          id,
          locale,
          text: consentSmsText(locale, env().NEXT_PUBLIC_PRODUCT_NAME, '{link}', id, '{requester}'),
        })),
      ),
    ),
  )
  .openapi(linkRoute, async (c) => {
    const { send } = readBody(c, renewLinkBody);
    const renewed = await renewConsentLink(await c.var.db(), c.get('user')!.id, c.req.valid('param').id, send);
    if (!renewed) throw notFound();
    return ok(c, { link: renewed.link, smsQueued: renewed.smsQueued });
  })
  .openapi(moreTimeRoute, async (c) =>
    ok(c, await askMoreTime(await c.var.db(), c.get('user')!.id, c.req.valid('param').id)),
  )
  .openapi(refreshRoute, async (c) =>
    ok(c, { askedAt: await askFreshFix(await c.var.db(), c.get('user')!.id, c.req.valid('param').id) }),
  )
  .openapi(clearRoute, async (c) => {
    const cleared = await clearPositions(await c.var.db(), c.get('user')!.id, c.req.valid('param').id);
    if (cleared === null) throw notFound();
    return ok(c, { deleted: cleared });
  });
