import 'server-only';
import type { Context, MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import { getDb } from '../db/client';
import { env } from '../env';
import { resolveClientIp } from '../services/client-ip';
import { sessionUserOf } from '../services/accounts';
import type { AppEnv } from './context';
import { ApiError, ErrorCode } from './errors';
import { pickLanguage } from '../i18n';
import { readSessionCookie } from './session-cookies';
import { log } from '../observability/log';
import { metrics } from '../observability/metrics';

/**
 * Gives the request an id (hono/request-id): a proxy's `X-Request-Id` is kept when it is at most 64 letters, digits,
 * `_`, `-` or `=`; otherwise a new UUID. Sets `c.var.requestId` and the `X-Request-Id` response header.
 */
export const requestIdentity = requestId({ limitLength: 64 });

/**
 * Second middleware of the API (after requestIdentity): after the answer writes one JSON log line (request id,
 * method, route pattern, status, duration in ms; never the path, query, body or IP) and counts the request in
 * `http_requests_total` and `http_request_duration_seconds`. A Response built by hand by a route, which does not carry
 * the `X-Request-Id` header, is given it.
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = c.get('requestId');
  const started = performance.now();
  try {
    await next();
  } finally {
    const route = c.req.routePath;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    if (c.res.headers.get('x-request-id') !== requestId) c.header('X-Request-Id', requestId);
    const m = metrics();
    m.httpRequests.inc({ method: c.req.method, route, status: String(c.res.status) });
    m.httpDuration.observe({ method: c.req.method, route }, ms / 1000);
    log().info({ reqId: requestId, method: c.req.method, route, status: c.res.status, ms }, 'request');
  }
};

/** The native app's token header (docs/rules.md#roles). */
export const TOKEN_HEADER = '_chamspy_token';

/**
 * Per-request context: the database (`db`, opened on first use), the response language from `Accept-Language`, the client IP (X-Forwarded-For only from
 * TRUSTED_PROXIES), and the signed-in user from the session cookie (`__Host-token` on an https origin, else `token`)
 * and/or the `_chamspy_token` header.
 * A token that names no live session, or a cookie and header naming different users, leave `user` null with
 * `tokenRejected`; `requireUser` then answers 401 with code 20012.
 */
/** The session tokens a request carries: its session cookie and/or the `_chamspy_token` header, in that order. */
export function sessionTokens(c: Context): string[] {
  return [readSessionCookie(c, 'buyer'), c.req.header(TOKEN_HEADER)].filter((t): t is string => !!t);
}

export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('db', getDb);
  c.set('lang', pickLanguage(c.req.header('accept-language')));
  c.set('clientIp', resolveClientIp(c.req.header('x-peer-ip'), c.req.header('x-forwarded-for'), env().TRUSTED_PROXIES));
  const tokens = sessionTokens(c);
  const user = tokens.length ? await sessionUserOf(await getDb(), tokens) : null;
  c.set('user', user);
  c.set('tokenRejected', tokens.length > 0 && !user);
  await next();
};

/**
 * Mutating calls must carry the `website_type` header (docs/rules.md#entities, #security): a cross-site HTML form cannot set
 * it, so this blocks CSRF with the session cookie. 403 otherwise. Provider webhooks are exempt: they carry no
 * session and prove themselves by their signature. So is the button-click tracker (`/operationLog/protal`): it may
 * be called from another origin (TRACKER_ORIGIN) as a simple CORS request, reads no session and stores no person.
 * So is the owner's page presence signal (`POST /spyContent/phoneLocation/{code}/presence`): `navigator.sendBeacon`
 * cannot set headers, and it reads no session — the consent code in its path is its only credential.
 */
export const requireWebsiteType: MiddlewareHandler<AppEnv> = async (c, next) => {
  const webhook = c.req.path.startsWith('/api_f/v1/webhooks/');
  const clicks = /^\/api_f\/v1\/operationLog\/protal\/?$/.test(c.req.path);
  const beacon =
    c.req.method === 'POST' && /^\/api_f\/v1\/spyContent\/phoneLocation\/[^/]+\/presence\/?$/.test(c.req.path);
  if (
    !webhook &&
    !clicks &&
    !beacon &&
    !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) &&
    !c.req.header('website_type')
  ) {
    throw new ApiError(403, ErrorCode.forbidden, 'Api.forbidden');
  }
  await next();
};

/**
 * Route guard for a signed-in user whose session may be restricted (opened with a temporary password): only the
 * password change, sign-out and user info use it. 401 with code 20012 without a live session (docs/rules.md#errors), with
 * `reason`: `session_ended` when a token was sent but is no longer valid, `no_session` when none was.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) {
    const ended = !!c.get('tokenRejected');
    // `reason` lets a page say "your session has ended" or "please sign in".
    throw new ApiError(
      401,
      ErrorCode.sessionInvalid,
      ended ? 'Api.sessionInvalid' : 'Api.notLoggedIn',
      {},
      { reason: ended ? 'session_ended' : 'no_session' },
    );
  }
  await next();
};

/** Route guard for everything else: a live, unrestricted session; a restricted one answers 403 'change password'. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  await requireSession(c, async () => {
    if (c.get('user')!.restricted) throw new ApiError(403, ErrorCode.mustChangePassword, 'Api.mustChangePassword');
    await next();
  });
};
