import 'server-only';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import {
  hostPrefixed,
  OPS_COOKIE_BASE,
  opsCookieName,
  SAFETY_COOKIE_BASE,
  safetyCookieName,
  SESSION_COOKIE_BASE,
  sessionCookieName,
} from '../../lib/session-cookie-names';
import { env } from '../env';
import { SESSION_ABSOLUTE_MS } from '../services/accounts';

/** The `userInfo` cookie the pages read (docs/rules.md#entities); not a credential, so never prefixed. */
export const USER_INFO_COOKIE = 'userInfo';

/** The buyer's session cookie name for this process's APP_ORIGIN: `__Host-token` on https, else `token`. */
export const sessionCookie = (): string => sessionCookieName(env().APP_ORIGIN);
/** The console's session cookie name for this process's APP_ORIGIN: `__Host-ops_token` on https, else `ops_token`. */
export const opsCookie = (): string => opsCookieName(env().APP_ORIGIN);

const maxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);

/**
 * Options of a session cookie: on an https APP_ORIGIN Hono's `prefix: 'host'` writes the `__Host-` name with
 * Secure, Path=/ and no Domain (RFC 6265bis §4.1.3.2; lib/session-cookie-names.ts); on http the plain name.
 */
function credentialOptions(): Pick<CookieOptions, 'prefix' | 'secure' | 'path'> {
  const secure = hostPrefixed(env().APP_ORIGIN);
  return secure ? { prefix: 'host', secure: true, path: '/' } : { secure: false, path: '/' };
}

/** The buyer's session token from its cookie under this origin's name (the other name is ignored), or undefined. */
export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, sessionCookie());
}

/**
 * Sets the session cookie (`__Host-token` on https, `token` on http; HttpOnly, SameSite=Lax, 90 days) and the
 * readable `userInfo` cookie holding `email` and `paymentCount` only (docs/rules.md#entities, 90 days, Secure on https).
 */
export function setSessionCookies(c: Context, token: string, info: { email: string; paymentCount: number }): void {
  const options = credentialOptions();
  setCookie(c, SESSION_COOKIE_BASE, token, { ...options, httpOnly: true, sameSite: 'Lax', maxAge });
  setCookie(c, USER_INFO_COOKIE, JSON.stringify({ email: info.email, paymentCount: info.paymentCount }), {
    sameSite: 'Lax',
    secure: options.secure,
    path: '/',
    maxAge,
  });
}

/** Removes both cookies (sign-out, or a dead session); a `__Host-` one is removed with the attributes it needs. */
export function clearSessionCookies(c: Context): void {
  deleteCookie(c, SESSION_COOKIE_BASE, credentialOptions());
  deleteCookie(c, USER_INFO_COOKIE, { path: '/', secure: hostPrefixed(env().APP_ORIGIN) });
}

/** The console's session token from its cookie under this origin's name, or undefined. */
export function readOpsCookie(c: Context): string | undefined {
  return getCookie(c, opsCookie());
}

/** Sets the console's session cookie (HttpOnly, SameSite=Strict, `maxAgeSeconds`), `__Host-` prefixed on https. */
export function setOpsCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, OPS_COOKIE_BASE, token, {
    ...credentialOptions(),
    httpOnly: true,
    sameSite: 'Strict',
    maxAge: maxAgeSeconds,
  });
}

/** Removes the console's session cookie. */
export function clearOpsCookie(c: Context): void {
  deleteCookie(c, OPS_COOKIE_BASE, credentialOptions());
}

/** The safety centre's session token from its cookie under this origin's name, or undefined. */
export function readSafetyCookie(c: Context): string | undefined {
  return getCookie(c, safetyCookieName(env().APP_ORIGIN));
}

/**
 * Sets the safety centre's session cookie (HttpOnly, SameSite=Strict, `maxAgeSeconds`: the session's 30 minutes),
 * `__Host-` prefixed on https. Separate from the buyer's session: it opens one number's safety centre and nothing else.
 */
export function setSafetyCookie(c: Context, token: string, maxAgeSeconds: number): void {
  setCookie(c, SAFETY_COOKIE_BASE, token, {
    ...credentialOptions(),
    httpOnly: true,
    sameSite: 'Strict',
    maxAge: maxAgeSeconds,
  });
}

/** Removes the safety centre's session cookie. */
export function clearSafetyCookie(c: Context): void {
  deleteCookie(c, SAFETY_COOKIE_BASE, credentialOptions());
}
