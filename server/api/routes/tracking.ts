import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { BROWSER_EVENTS } from '../../../lib/tracking/funnel';
import { env } from '../../env';
import { enqueueAdForward } from '../../jobs/boss';
import { recordAdEvent } from '../../services/ad-events';
import { recordBrowserEvent, recordButtonClick } from '../../services/events';
import { consume } from '../../services/rate-limit';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode, notFound } from '../errors';
import { BAD_INPUT, envelope, fails, jsonResponse, ok } from '../respond';
import { trackingFields } from '../../../lib/contracts/fields';
import { bodyOf, readBody, trackIdOf } from '../validation';

const stored = jsonResponse(envelope(z.object({ stored: z.literal(true) })), 'Stored');

const logBody = z.object({
  currDocument: z.string().trim().min(1).max(2000),
  domain: z.string().trim().min(1).max(253),
  eventCode: z.enum(BROWSER_EVENTS),
  eventType: z.coerce.number().pipe(z.literal(1)).default(1),
  ...trackingFields,
});

// POST /api_f/v1/operationLog - an operation-log event from the browser (docs/rules.md#entities)
const logRoute = createRoute({
  method: 'post',
  path: '/operationLog',
  summary:
    'Operation log (docs/rules.md#entities): stores a browser event (currDocument, domain, eventCode, eventType 1) with the headers track_id (event token), phone_os (3 mobile, else 2) and version. Browsers may send landing_view, locate_submitted, number_identified, checkout_started and page_view; paid, consent_opened and shared are written by the server. TRACKING_PER_IP_PER_HOUR (600) tracking calls per IP per hour.',
  request: { body: bodyOf(logBody) },
  responses: { 200: stored, ...fails(BAD_INPUT) },
});

const clickBody = z.object({
  apkChannel: z.string().trim().min(1).max(100).default('SEO'),
  btnId: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,100}$/),
  os: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1), z.literal(2)])),
});

// POST /api_f/v1/operationLog/protal - a button click (docs/rules.md#entities, #api)
const clickRoute = createRoute({
  method: 'post',
  path: '/operationLog/protal',
  summary:
    'Button-click record (docs/rules.md#entities): apkChannel (default SEO), btnId, os (2 desktop, 1 iOS, 0 other mobile). Served for NEXT_PUBLIC_TRACKER_ORIGIN, so it answers cross-origin (Access-Control-Allow-Origin *) and needs no website_type header: it carries no session and stores no personal data.',
  // hono/cors: every answer, errors included, carries Access-Control-Allow-Origin *.
  middleware: [cors({ origin: '*' })] as const,
  request: { body: bodyOf(clickBody) },
  responses: { 200: stored, ...fails(BAD_INPUT) },
});

const adBody = z.object({
  actionSource: z.literal('website'),
  eventName: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/),
  eventTime: z.coerce.number().int(),
  userData: z.object({ fbc: z.string().max(500).optional(), fbp: z.string().max(500).optional() }).default({}),
  eventSourceUrl: z.url().max(2000).optional(),
});

/** Meta accepts events up to 7 days old and refuses ones from the future (Conversions API parameters docs). */
const AD_EVENT_MAX_AGE_S = 7 * 86_400;
const AD_EVENT_MAX_AHEAD_S = 600;

// POST /api_f/v1/adEvents/{hash} - ad conversion event, public path /api_{hash} (next.config rewrite)
const adRoute = createRoute({
  method: 'post',
  path: '/adEvents/{hash}',
  summary:
    'Ad conversion event (docs/rules.md#entities, #api), reached as POST /api_{hash}: actionSource website, eventName, eventTime (seconds, at most 7 days old), userData {fbc, fbp}; query test=true&testEventCode=… marks a test event. Stored; forwarded to the Meta Conversions API by a job only when META_PIXEL_ID and META_CAPI_TOKEN are set. Browsers send it only after the visitor accepted cookies. 404 for another hash.',
  request: {
    params: z.object({ hash: z.string().max(40) }),
    query: z.object({ test: z.string().optional(), testEventCode: z.string().max(100).optional() }),
    body: bodyOf(adBody),
  },
  responses: { 200: stored, ...fails(BAD_INPUT) },
});

export const trackingApi = new OpenAPIHono<AppEnv>()
  .openapi(logRoute, async (c) => {
    const body = readBody(c, logBody);
    await consume('trackingPerIp', c.get('clientIp') ?? 'unknown');
    const phoneOs = Number(c.req.header('phone_os'));
    await recordBrowserEvent(await c.var.db(), {
      eventCode: body.eventCode,
      currDocument: body.currDocument,
      domain: body.domain,
      trackId: trackIdOf(c) ?? null,
      phoneOs: phoneOs === 2 || phoneOs === 3 ? phoneOs : null,
      appVersion: c.req.header('version')?.slice(0, 20) ?? null,
      channel: body.apkChannel || 'SEO',
      keyword: body.keyword || null,
      gclid: body.gclid || null,
      wbraid: body.wbraid || null,
    });
    return ok(c, { stored: true as const });
  })
  .openapi(clickRoute, async (c) => {
    const body = readBody(c, clickBody);
    await consume('trackingPerIp', c.get('clientIp') ?? 'unknown');
    await recordButtonClick(await c.var.db(), body);
    return ok(c, { stored: true as const });
  })
  .openapi(adRoute, async (c) => {
    if (c.req.valid('param').hash !== env().NEXT_PUBLIC_AD_EVENTS_HASH) throw notFound();
    const body = readBody(c, adBody);
    const now = Math.floor(Date.now() / 1000);
    if (body.eventTime < now - AD_EVENT_MAX_AGE_S || body.eventTime > now + AD_EVENT_MAX_AHEAD_S) {
      throw new ApiError(
        422,
        ErrorCode.validation,
        'Validation.invalid',
        { field: 'eventTime' },
        { field: 'eventTime' },
      );
    }
    await consume('trackingPerIp', c.get('clientIp') ?? 'unknown');
    const query = c.req.valid('query');
    const { id, forward } = await recordAdEvent(await c.var.db(), {
      ...body,
      testEventCode: query.test === 'true' && query.testEventCode ? query.testEventCode : undefined,
      clientIp: c.get('clientIp'),
      clientUserAgent: c.req.header('user-agent')?.slice(0, 500) ?? null,
    });
    if (forward) await enqueueAdForward(id);
    return ok(c, { stored: true as const });
  });
