import 'server-only';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { getDb } from '../db/client';
import { env } from '../env';
import { resolveClientIp } from '../services/client-ip';
import { findSessionUser } from '../services/sessions';
import type { AppEnv } from './context';
import { ApiError, ErrorCode } from './errors';
import { pickLanguage } from './i18n';

/** Session cookie name (ARCHITECTURE §6) and the native app's header (SPEC §6). */
export const SESSION_COOKIE = 'token';
export const TOKEN_HEADER = '_chamspy_token';

/**
 * Per-request context: the response language from `Accept-Language`, the client IP (X-Forwarded-For only from
 * TRUSTED_PROXIES), and the signed-in user from the `token` cookie or `_chamspy_token` header. A token that names
 * no live session leaves `user` null; `requireUser` then answers 401 with code 20012.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('lang', pickLanguage(c.req.header('accept-language')));
  c.set('clientIp', resolveClientIp(c.req.header('x-peer-ip'), c.req.header('x-forwarded-for'), env().TRUSTED_PROXIES));
  const token = getCookie(c, SESSION_COOKIE) ?? c.req.header(TOKEN_HEADER);
  c.set('user', token ? await findSessionUser(await getDb(), token) : null);
  await next();
};

/**
 * Mutating calls must carry the `website_type` header (SPEC §3, ARCHITECTURE §6): a cross-site HTML form cannot set
 * it, so this blocks CSRF with the session cookie. 403 otherwise.
 */
export const requireWebsiteType: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) && !c.req.header('website_type')) {
    throw new ApiError(403, ErrorCode.forbidden, 'Api.forbidden');
  }
  await next();
};

/** Route guard: 401 with code 20012 unless a live session is attached (SPEC §8). */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) {
    const presented = getCookie(c, SESSION_COOKIE) ?? c.req.header(TOKEN_HEADER);
    throw new ApiError(401, ErrorCode.sessionInvalid, presented ? 'Api.sessionInvalid' : 'Api.notLoggedIn');
  }
  await next();
};
