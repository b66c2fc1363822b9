import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { getDb } from '../../db/client';
import { env } from '../../env';
import {
  SHARE_PRESETS,
  answerConsent,
  clearPositions,
  consentView,
  listRequests,
  requestWithPositions,
  savePosition,
  type AnswerResult,
} from '../../services/locate';
import type { AppEnv } from '../context';
import { ApiError, ErrorCode, notFound } from '../errors';
import { translate } from '../../i18n';
import { requireUser } from '../middleware';
import { created, envelope, errorEnvelope, errorResponses, jsonResponse, ok, okPage } from '../respond';
import { bodyOf, readBody } from '../validation';
import { enqueueAfterCommit } from '../../jobs/boss';
import { SMS_TEXTS, consentSmsText } from '../../services/consent-sms';
import { PhoneParseError } from '../../services/phone-info';
import { assertNotLimited, consume } from '../../services/rate-limit';
import { quotaOf, requestLocation } from '../../services/requests';

const status = z.enum(['queued', 'sms_sent', 'opened', 'sharing', 'stopped', 'declined', 'expired']);
const codeParam = z.object({ id: z.string().min(16).max(64) });
const uuidParam = z.object({ id: z.uuid() });

const position = z.object({
  source: z.enum(['gps', 'ip']),
  latitude: z.number(),
  longitude: z.number(),
  accuracy: z.number().nullable().openapi({ description: 'metres; null for an IP position without a radius' }),
  label: z.string().nullable(),
  recordedAt: z.string(),
});

// GET /api_f/v1/spyContent - the subscriber's location requests, paged
const listRoute = createRoute({
  method: 'get',
  path: '/spyContent',
  summary: "The caller's location requests, newest first (page envelope)",
  middleware: [requireUser] as const,
  request: {
    query: z.object({
      pageNum: z.coerce.number().int().min(1).default(1),
      pageSize: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        success: z.literal(1),
        msg: z.string(),
        page: z.object({
          list: z.array(
            z.object({ id: z.string(), phone: z.string(), status, createdAt: z.string(), positions: z.number() }),
          ),
          total: z.number(),
          pageNum: z.number(),
          pageSize: z.number(),
          quota: z.object({ used: z.number().int(), total: z.number().int() }).nullable(),
        }),
      }),
      'Page',
    ),
    401: jsonResponse(errorEnvelope, 'Not signed in'),
  },
});

// GET /api_f/v1/gpsTrace/phoneLocation/{id} - one own request with its positions
const traceRoute = createRoute({
  method: 'get',
  path: '/gpsTrace/phoneLocation/{id}',
  summary: "One of the caller's requests with its newest positions; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: uuidParam },
  responses: {
    200: jsonResponse(
      envelope(
        z.object({
          id: z.string(),
          phone: z.string(),
          status,
          createdAt: z.string(),
          sharingUntil: z.string().nullable(),
          positions: z.array(position),
        }),
      ),
      'Request',
    ),
    401: jsonResponse(errorEnvelope, 'Not signed in'),
    404: jsonResponse(errorEnvelope, 'Not found or not yours'),
  },
});

// GET /api_f/v1/spyContent/consent/{id} - what the consent page shows for a consent code
const consentRoute = createRoute({
  method: 'get',
  path: '/spyContent/consent/{id}',
  summary: "Consent page data for a consent code: the service, the requester's masked e-mail, status",
  request: { params: codeParam },
  responses: {
    200: jsonResponse(
      envelope(
        z.object({
          product: z.string(),
          requester: z.string(),
          status,
          expiresAt: z.string(),
          sharingUntil: z.string().nullable(),
          presets: z.array(z.number()),
        }),
      ),
      'Consent view',
    ),
    404: jsonResponse(errorEnvelope, 'Unknown code'),
  },
});

const answerBody = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('share'),
    minutes: z.coerce
      .number()
      .int()
      .refine((m) => (SHARE_PRESETS as readonly number[]).includes(m), 'Validation.invalid')
      .default(60),
  }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('stop') }),
  z.object({ action: z.literal('report') }),
  z.object({
    action: z.literal('position'),
    latitude: z.coerce.number().min(-90, 'Validation.coordinates').max(90, 'Validation.coordinates'),
    longitude: z.coerce.number().min(-180, 'Validation.coordinates').max(180, 'Validation.coordinates'),
    accuracy: z.coerce.number().min(0, 'Validation.coordinates').max(1_000_000, 'Validation.coordinates'),
  }),
]);

const newRequestBody = z.object({
  phone: z
    .string('Validation.phoneRequired')
    .trim()
    .min(1, 'Validation.phoneRequired')
    .max(250, 'Validation.phoneTooLong'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
  text: z.enum(SMS_TEXTS).default('standard'),
});

// POST /api_f/v1/spyContent/phoneLocation - a subscriber requests a number's location
const createRoute_ = createRoute({
  method: 'post',
  path: '/spyContent/phoneLocation',
  summary:
    'New location request (phone, optional country for national numbers, SMS text id). Needs a trialing or active subscription (403), a quota credit (403) and the SMS guards (403 opted out or country, 429 daily caps).',
  middleware: [requireUser] as const,
  request: { body: bodyOf(newRequestBody) },
  responses: {
    201: jsonResponse(
      envelope(z.object({ id: z.string(), link: z.string().openapi({ description: 'the consent link, shown once' }) })),
      'Created; the consent SMS is queued',
    ),
    401: jsonResponse(errorEnvelope, 'Not signed in'),
    403: jsonResponse(errorEnvelope, 'No subscription, quota used, number opted out or country not allowed'),
    429: jsonResponse(errorEnvelope, 'Daily SMS limit'),
    ...errorResponses,
  },
});

// GET /api_f/v1/multilingualWord/one/3/phone_text - the consent SMS texts a buyer may choose
const textsRoute = createRoute({
  method: 'get',
  path: '/multilingualWord/one/3/phone_text',
  summary: 'The consent SMS texts per language; {link} stands for the consent link',
  responses: {
    200: jsonResponse(envelope(z.array(z.object({ id: z.string(), locale: z.string(), text: z.string() }))), 'Texts'),
  },
});

// POST /api_f/v1/spyContent/clear/{id} - delete the positions of one own request
const clearRoute = createRoute({
  method: 'post',
  path: '/spyContent/clear/{id}',
  summary: "Deletes every position of one of the caller's requests; another user's id answers 404",
  middleware: [requireUser] as const,
  request: { params: uuidParam },
  responses: {
    200: jsonResponse(envelope(z.object({ deleted: z.number().int() })), 'Positions deleted'),
    401: jsonResponse(errorEnvelope, 'Not signed in'),
    404: jsonResponse(errorEnvelope, 'Not found or not yours'),
  },
});

// PUT /api_f/v1/spyContent/phoneLocation/{id} - the owner's answer or a position, by consent code
const answerRoute = createRoute({
  method: 'put',
  path: '/spyContent/phoneLocation/{id}',
  summary:
    'Consent page actions by consent code: share (records consent + IP location), decline, stop, report (no more SMS to this number), position (lat/lng degrees, accuracy metres; only while sharing). Unknown codes answer 404 and are rate limited per IP.',
  request: { params: codeParam, body: bodyOf(answerBody) },
  responses: {
    200: jsonResponse(envelope(z.object({ status })), 'New status'),
    404: jsonResponse(errorEnvelope, 'Unknown code'),
    409: jsonResponse(errorEnvelope, 'Not possible in this state'),
    410: jsonResponse(errorEnvelope, 'Link expired'),
    ...errorResponses,
  },
});

function unwrap(result: AnswerResult) {
  if ('status' in result) return { status: result.status };
  switch (result.error) {
    case 'not_found':
      throw notFound();
    case 'expired':
      throw new ApiError(410, ErrorCode.conflict, 'Api.linkExpired');
    case 'answered':
      throw new ApiError(409, ErrorCode.conflict, 'Api.alreadyAnswered');
    case 'not_sharing':
      throw new ApiError(409, ErrorCode.conflict, 'Api.notSharing');
  }
}

export const locationsApi = new OpenAPIHono<AppEnv>()
  .openapi(listRoute, async (c) => {
    const { pageNum, pageSize } = c.req.valid('query');
    const db = await getDb();
    const userId = c.get('user')!.id;
    const [page, quota] = await Promise.all([listRequests(db, userId, pageNum, pageSize), quotaOf(db, userId)]);
    return okPage(c, { ...page, quota: quota ? { used: quota.used, total: quota.quota } : null });
  })
  .openapi(traceRoute, async (c) => {
    const found = await requestWithPositions(await getDb(), c.get('user')!.id, c.req.valid('param').id);
    if (!found) throw notFound();
    return ok(c, found);
  })
  .openapi(consentRoute, async (c) => {
    const db = await getDb();
    const code = c.req.valid('param').id;
    const found = await guessingGuard(c.get('clientIp'), () => consentView(db, code));
    return ok(c, { product: env().NEXT_PUBLIC_PRODUCT_NAME, ...found, presets: [...SHARE_PRESETS] });
  })
  .openapi(answerRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = readBody(c, answerBody);
    const db = await getDb();
    const view = await guessingGuard(c.get('clientIp'), () => consentView(db, id));
    if (body.action === 'position') return ok(c, unwrap(await savePosition(db, id, body)));
    // The consent record keeps a hash of the text the owner was shown, in the page's language.
    const lang = c.get('lang');
    const product = env().NEXT_PUBLIC_PRODUCT_NAME;
    const shownText = [
      translate(lang, 'Consent.who', { product, requester: view.requester }),
      translate(lang, 'Consent.what'),
    ].join('\n');
    const meta = { ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null, shownText };
    const result = await answerConsent(db, id, body, meta);
    if ('outboxIds' in result && result.outboxIds) await enqueueAfterCommit(result.outboxIds);
    return ok(c, unwrap(result));
  })
  .openapi(createRoute_, async (c) => {
    const body = readBody(c, newRequestBody);
    try {
      const { requestId, smsId, link } = await requestLocation(await getDb(), c.get('user')!.id, body);
      await enqueueAfterCommit([smsId]);
      return created(c, { id: requestId, link });
    } catch (error) {
      if (error instanceof PhoneParseError) {
        throw new ApiError(400, ErrorCode.badRequest, 'Validation.phoneInvalid', {}, { kind: error.kind });
      }
      throw error;
    }
  })
  .openapi(textsRoute, (c) =>
    ok(
      c,
      (['en', 'id', 'es'] as const).flatMap((locale) =>
        SMS_TEXTS.map((id) => ({
          id,
          locale,
          text: consentSmsText(locale, env().NEXT_PUBLIC_PRODUCT_NAME, '{link}', id),
        })),
      ),
    ),
  )
  .openapi(clearRoute, async (c) => {
    const cleared = await clearPositions(await getDb(), c.get('user')!.id, c.req.valid('param').id);
    if (cleared === null) throw notFound();
    return ok(c, { deleted: cleared });
  });

/**
 * Looks up a consent code; an unknown one spends a point of the per-IP guessing limit and answers the same 404 as
 * any missing record. An IP out of points gets 429 before any lookup.
 */
async function guessingGuard<T>(ip: string | null, lookup: () => Promise<T | null>): Promise<T> {
  await assertNotLimited('consentMissPerIp', ip ?? 'unknown');
  const found = await lookup();
  if (found) return found;
  await consume('consentMissPerIp', ip ?? 'unknown');
  throw notFound();
}
