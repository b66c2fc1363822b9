import 'server-only';
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { env } from '../../env';
import { translate } from '../../i18n';
import { type AnswerResult, answerConsent, consentView, savePosition } from '../../services/locate';
import type { AppEnv } from '../context';
import { readBrowserKey } from '../offer-browser-cookie';
import { guessMissed, guessingGuard } from '../consent-guard';
import { ApiError, ErrorCode, notFound } from '../errors';
import { BAD_INPUT, SMALL_ANSWER, envelope, fails, jsonResponse, ok } from '../respond';
import { bodyOf, readBody } from '../validation';
import {
  SHARE_PRESETS,
  answerBody,
  consentAnswerSchema,
  consentCodeParams,
  consentViewSchema,
  type ConsentAnswer,
  type ConsentView,
} from '../../../lib/contracts/consent';

// The phone owner's side: everything here is reached with the consent code from the SMS link, never a session.

// GET /api_f/v1/spyContent/consent/{id} - what the consent page shows for a consent code
const consentRoute = createRoute({
  method: 'get',
  path: '/spyContent/consent/{id}',
  summary:
    "Consent page data for a consent code: the service, the requester's name and masked e-mail, what we know of their account (created today or the month, requests made, how many reported), status and how sharing ended",
  request: { params: consentCodeParams },
  responses: { 200: jsonResponse(envelope(consentViewSchema), 'Consent view'), ...fails({ 404: 'Unknown code' }) },
});

// PUT /api_f/v1/spyContent/phoneLocation/{id} - the owner's answer or a position, by consent code
const answerRoute = createRoute({
  method: 'put',
  path: '/spyContent/phoneLocation/{id}',
  summary:
    'Consent page actions by consent code: share (sent after the browser gave its first fix, which it carries: records consent, stores that fix and the IP area), denied (the browser refused the location: nothing stored, the buyer sees it), decline, stop, report (no more SMS to this number; in any state, after a decline too; an optional `reason` of at most 140 characters is stored with it), position (lat/lng degrees, accuracy metres; only while sharing; answers the end of the share and whether the requester asks for more time), extend (minutes 15 or 60 added to a running share, never beyond 8 h from now; a consent record `extended`), keep_end (no to the requester asking for more time), approximate (a running exact share sends only areas of about 2 km from now on; share takes `precision` exact or approximate). Unknown codes answer 404 and are rate limited per IP; a request withdrawn (subscription ended) answers 410.',
  request: { params: consentCodeParams, body: bodyOf(answerBody) },
  responses: {
    200: jsonResponse(envelope(consentAnswerSchema), 'New status'),
    ...fails({ 404: 'Unknown code', 409: 'Not possible in this state', 410: 'Link expired', ...BAD_INPUT }),
  },
});

/** The answer of an owner's action, or the refusal as HTTP says it (404, 409, 410). */
function unwrap(result: AnswerResult): ConsentAnswer {
  if ('status' in result) return result;
  switch (result.error) {
    case 'not_found':
      throw notFound();
    case 'expired':
      throw new ApiError(410, ErrorCode.gone, 'Api.linkExpired');
    case 'withdrawn':
      throw new ApiError(410, ErrorCode.gone, 'Api.requestWithdrawn');
    case 'answered':
      throw new ApiError(409, ErrorCode.conflict, 'Api.alreadyAnswered');
    case 'not_sharing':
      throw new ApiError(409, ErrorCode.conflict, 'Api.notSharing');
  }
}

export const consentApi = new OpenAPIHono<AppEnv>()
  .openapi(consentRoute, async (c) => {
    const db = await c.var.db();
    const code = c.req.valid('param').id;
    const found = await guessingGuard(c.get('clientIp'), () => consentView(db, code));
    return ok(c, {
      product: env().NEXT_PUBLIC_PRODUCT_NAME,
      ...found,
      presets: [...SHARE_PRESETS],
    } satisfies ConsentView);
  })
  .openapi(answerRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = readBody(c, answerBody);
    const db = await c.var.db();
    const ip = c.get('clientIp');
    if (body.action === 'position') {
      // Positions arrive every few seconds while the owner shares: one statement checks the guessing limit too.
      const saved = await savePosition(db, id, body, ip);
      if ('error' in saved && saved.error === 'not_found') return guessMissed(ip);
      c.header('Cache-Control', SMALL_ANSWER);
      return ok(c, unwrap(saved));
    }
    // The consent record keeps a hash of the text the owner was shown, in the page's language.
    const lang = c.get('lang');
    const product = env().NEXT_PUBLIC_PRODUCT_NAME;
    const meta = {
      ip,
      userAgent: c.req.header('user-agent') ?? null,
      sessionUserId: c.get('user')?.id ?? null,
      browserKey: readBrowserKey(c),
      shownText: ({ name, email, note }: { name: string | null; email: string; note: string | null }) =>
        [
          name
            ? `${translate(lang, 'Consent.whoNamed', { product, name })}\n${translate(lang, 'Consent.account', { email })}`
            : translate(lang, 'Consent.who', { product, requester: email }),
          ...(note ? [`${translate(lang, 'Consent.note')}: ${note}`] : []),
          // One paragraph on the page: what is shared, and that nothing is kept beyond the share.
          `${translate(lang, 'Consent.what')} ${translate(lang, 'Consent.noHistory')}`,
        ].join('\n'),
    };
    const result = await guessingGuard(ip, async (): Promise<AnswerResult | null> => {
      const answer = await answerConsent(
        db,
        id,
        body.action === 'share'
          ? { action: 'share', minutes: body.minutes, precision: body.precision, fix: body }
          : body,
        meta,
      );
      return 'error' in answer && answer.error === 'not_found' ? null : answer;
    });
    return ok(c, unwrap(result));
  });
