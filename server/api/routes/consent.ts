import 'server-only';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { env } from '../../env';
import { translate } from '../../i18n';
import { enqueueAfterCommit } from '../../jobs/boss';
import { SHARE_PRESETS, answerConsent, consentView, savePosition, type AnswerResult } from '../../services/consent';
import type { AppEnv } from '../context';
import { guessingGuard } from '../consent-guard';
import { ApiError, ErrorCode, notFound } from '../errors';
import { envelope, errorEnvelope, errorResponses, jsonResponse, ok } from '../respond';
import { normalizeOwnerNote, ownerNoteProblem } from '../../../lib/validation/requester-name';
import { prototypeOf } from '../../../lib/validation/skeleton';
import { bodyOf, readBody } from '../validation';
import { REQUEST_STATES } from '../../../lib/request-machine';

// The phone owner's side: everything here is reached with the consent code from the SMS link, never a session.

/** The request's state as the owner sees it: the whole table of lib/request-machine.ts. */
const status = z.enum(REQUEST_STATES);
const codeParam = z.object({ id: z.string().min(16).max(64) });

// GET /api_f/v1/spyContent/consent/{id} - what the consent page shows for a consent code
const consentRoute = createRoute({
  method: 'get',
  path: '/spyContent/consent/{id}',
  summary:
    "Consent page data for a consent code: the service, the requester's name and masked e-mail, what we know of their account (created today or the month, requests made, how many reported), status and how sharing ended",
  request: { params: codeParam },
  responses: {
    200: jsonResponse(
      envelope(
        z.object({
          product: z.string(),
          requester: z.string().openapi({ description: "the requester's e-mail, masked" }),
          requesterName: z.string().nullable().openapi({ description: 'who asks, as the buyer wrote it' }),
          facts: z
            .object({
              newAccount: z.boolean().openapi({ description: 'the account was created less than 24 hours ago' }),
              since: z.string().openapi({ description: 'the month the account was created, YYYY-MM (UTC)' }),
              requests: z.number().int().openapi({ description: 'location requests the account made, this one too' }),
              reported: z.number().int().openapi({ description: 'how many of them their owners reported as abuse' }),
            })
            .openapi({ description: 'what we know of the account that asks, shown beside the name' }),
          note: z.string().nullable().openapi({
            description: "the buyer's note to the owner, plain text, at most 140 characters",
          }),
          status,
          reported: z.boolean().openapi({ description: 'the owner reported this request as abuse' }),
          ended: z.enum(['owner', 'time']).nullable().openapi({
            description: 'for a stopped request: stopped by the owner, or the chosen duration ran out',
          }),
          withdrawn: z.boolean().openapi({ description: "the buyer's subscription ended; the request is over" }),
          locationDenied: z.boolean().openapi({ description: 'the browser refused the location last time' }),
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

/**
 * A coordinate or accuracy: a finite decimal number, as JSON number or as a form string like `-33.8688` or `1e2`
 *. `null`, `""`, booleans, arrays and hexadecimal strings are refused (422), never coerced.
 */
const decimal = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/)
          .transform(Number),
      ],
      {
        error: 'Validation.coordinates',
      },
    )
    .pipe(
      z.number().finite('Validation.coordinates').min(min, 'Validation.coordinates').max(max, 'Validation.coordinates'),
    );

/** A browser fix: latitude and longitude in degrees, accuracy radius in metres (Geolocation API `coords`). */
const fix = {
  latitude: decimal(-90, 90),
  longitude: decimal(-180, 180),
  accuracy: decimal(0, 1_000_000),
};

/**
 * The owner's optional reason for a report: plain text held to the rules of the buyer's note to the owner
 * (`ownerNoteProblem`, lib/validation/requester-name.ts: at most 140 characters, nothing invisible, no link, web or
 * e-mail address, no phone number, look-alikes included), so nothing a stranger typed reaches the operators' console
 * as a link or a number to call. A refusal answers 422 with `Validation.reportReason*` (Length, Link, Phone, Invalid).
 * Absent, empty or blank: null (no reason); stored with line breaks as spaces and whitespace collapsed.
 */
export const reportReason = z
  .string()
  .max(2000, 'Validation.reportReasonLength')
  .superRefine((value, ctx) => {
    const problem = ownerNoteProblem(value, prototypeOf);
    if (problem)
      ctx.addIssue({ code: 'custom', message: problem.replace('Validation.note', 'Validation.reportReason') });
  })
  .transform(normalizeOwnerNote)
  .nullish()
  .transform((v) => v ?? null)
  .describe("the owner's optional reason for the report, at most 140 characters, no links or phone numbers");

const answerBody = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('share'),
    minutes: z.coerce
      .number()
      .int()
      .refine((m) => (SHARE_PRESETS as readonly number[]).includes(m), 'Validation.invalid')
      .default(60),
    ...fix,
  }),
  z.object({ action: z.literal('denied') }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('stop') }),
  z.object({ action: z.literal('report'), reason: reportReason }),
  z.object({ action: z.literal('position'), ...fix }),
]);

// PUT /api_f/v1/spyContent/phoneLocation/{id} - the owner's answer or a position, by consent code
const answerRoute = createRoute({
  method: 'put',
  path: '/spyContent/phoneLocation/{id}',
  summary:
    'Consent page actions by consent code: share (sent after the browser gave its first fix, which it carries: records consent, stores that fix and the IP area), denied (the browser refused the location: nothing stored, the buyer sees it), decline, stop, report (no more SMS to this number; in any state, after a decline too; an optional `reason` of at most 140 characters is stored with it), position (lat/lng degrees, accuracy metres; only while sharing). Unknown codes answer 404 and are rate limited per IP; a request withdrawn (subscription ended) answers 410.',
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
    return ok(c, { product: env().NEXT_PUBLIC_PRODUCT_NAME, ...found, presets: [...SHARE_PRESETS] });
  })
  .openapi(answerRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = readBody(c, answerBody);
    const db = await c.var.db();
    // The consent record keeps a hash of the text the owner was shown, in the page's language.
    const lang = c.get('lang');
    const product = env().NEXT_PUBLIC_PRODUCT_NAME;
    const meta = {
      ip: c.get('clientIp'),
      userAgent: c.req.header('user-agent') ?? null,
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
    // One lookup per call: positions arrive every 10 s while the owner shares.
    const result = await guessingGuard(
      c.get('clientIp'),
      async (): Promise<(AnswerResult & { outboxIds?: string[] }) | null> => {
        const answer =
          body.action === 'position'
            ? await savePosition(db, id, body)
            : await answerConsent(
                db,
                id,
                body.action === 'share' ? { action: 'share', minutes: body.minutes, fix: body } : body,
                meta,
              );
        return 'error' in answer && answer.error === 'not_found' ? null : answer;
      },
    );
    if ('outboxIds' in result && result.outboxIds) await enqueueAfterCommit(result.outboxIds);
    return ok(c, unwrap(result));
  });
