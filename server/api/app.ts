import 'server-only';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './context';
import { ApiError, DomainError, ErrorCode, apiErrorOf } from './errors';
import { pickLanguage, translate } from '../i18n';
import { requestContext, requestIdentity, requestLog, requireWebsiteType } from './middleware';
import { log } from '../observability/log';
import { describeError } from '../observability/describe-error';
import { devApi } from './routes/dev';
import { health, metricsApi } from './routes/health';
import { consentApi } from './routes/consent';
import { liveApi } from './routes/live';
import { safetyApi } from './routes/safety';
import { pushApi } from './routes/push';
import { locationsApi } from './routes/locations';
import { lookups } from './routes/lookups';
import { ordersApi } from './routes/orders';
import { accountsApi } from './routes/accounts';
import { dataLeaksApi } from './routes/data-leaks';
import { usernameLookupApi } from './routes/username-lookup';
import { billingApi } from './routes/billing';
import { webhooksApi } from './routes/webhooks';
import { sandboxPayApi } from './routes/sandbox-pay';
import { cancelApi } from './routes/cancel';
import { withdrawApi } from './routes/withdraw';
import { contactApi } from './routes/contact';
import { trackingApi } from './routes/tracking';
import { opsMount } from './routes/ops';
import { validationHook } from './validation';
import { inputHygiene } from './input-hygiene';
import { RateLimitedError, waitParams } from '../services/rate-limit';

export { describeError };

/** Largest accepted request body (bytes); larger answers 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The API's one error handler (docs/rules.md#api): every error becomes the envelope `{success:0,code,msg}` with `msg`
 * in the request's language. An ApiError as it is; a DomainError through apiErrorOf (server/api/errors.ts); a rate
 * limit 429 with `Retry-After` (s); Hono's 415 as `unsupportedMedia`, its other 4xx (a body that cannot be read) 400
 * `badBody`; anything else is logged with the route's pattern and answered 500 `internal`.
 */
const onApiError: ErrorHandler<AppEnv> = (error, c) => {
  const lang = c.get('lang') ?? pickLanguage(c.req.header('accept-language'));
  let apiError: ApiError;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof DomainError) apiError = apiErrorOf(error);
  else if (error instanceof RateLimitedError) {
    c.header('Retry-After', String(error.retryAfterSeconds));
    apiError = new ApiError(429, ErrorCode.rateLimited, error.messageKey, waitParams(error.retryAfterSeconds));
  } else if (error instanceof HTTPException && error.status === 415)
    apiError = new ApiError(415, ErrorCode.unsupportedMedia, 'Api.unsupportedMedia');
  else if (error instanceof HTTPException && error.status < 500)
    apiError = new ApiError(400, ErrorCode.badRequest, 'Api.badBody');
  else {
    // The route's pattern, never the path, query or body: they may hold e-mails, numbers and codes.
    log().error(
      { reqId: c.get('requestId'), method: c.req.method, route: c.req.routePath, err: describeError(error) },
      'unexpected error',
    );
    apiError = new ApiError(500, ErrorCode.internal, 'Api.internal');
  }
  return c.json(
    {
      success: 0,
      code: apiError.code,
      msg: translate(lang, apiError.messageKey, apiError.params),
      ...apiError.detail,
    },
    apiError.status,
  );
};

/**
 * The API under `/api_f/v1` (docs/rules.md#api): envelope `{success:1,msg,obj|page}` / `{success:0,code,msg}`, one
 * ApiError and one onError, zod validation (422 with the first message), `msg` in the `Accept-Language` language,
 * 1 MB body limit, 404 in the envelope, OpenAPI at `/openapi.json`. `strict: false` because with
 * `trailingSlash: true` a request may arrive with a trailing slash.
 */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook }).basePath('/api_f/v1');

  app.use(requestIdentity);
  app.use(requestLog);
  app.use(
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: () => {
        throw new ApiError(413, ErrorCode.tooLarge, 'Api.tooLarge');
      },
    }),
  );
  app.use(requireWebsiteType);
  app.use(inputHygiene);
  app.use(requestContext);

  app.route('/', health);
  app.route('/', metricsApi);
  app.route('/', lookups);
  app.route('/', ordersApi);
  app.route('/', sandboxPayApi);
  app.route('/', cancelApi);
  app.route('/', withdrawApi);
  app.route('/', contactApi);
  app.route('/', trackingApi);
  app.route('/', accountsApi);
  app.route('/', dataLeaksApi);
  app.route('/', usernameLookupApi);
  app.route('/', billingApi);
  app.route('/', webhooksApi);
  app.route('/', locationsApi);
  app.route('/', consentApi);
  app.route('/', liveApi);
  app.route('/', safetyApi);
  app.route('/', pushApi);
  app.route('/', devApi);
  // Kept out of the public OpenAPI document: the operator console is not advertised (its own document is behind the
  // operator session, server/api/routes/ops.ts).
  app.route('/', opsMount);

  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Locate-with-consent API',
      version: '1.0.0',
      description: 'Envelope: {success:1,msg,obj|page} / {success:0,code,msg}',
    },
  });

  app.notFound((c) => {
    const lang = pickLanguage(c.req.header('accept-language'));
    return c.json({ success: 0, code: ErrorCode.notFound, msg: translate(lang, 'Api.notFound') }, 404);
  });

  app.onError(onApiError);

  return app;
}
