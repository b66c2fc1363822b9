import 'server-only';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { env } from '../env';
import { sessionCookieOf, type SessionKind } from '../services/sessions';

// The HTTP edge of the session cookies: it writes what the session module says a kind's cookie is (name, HttpOnly,
// SameSite, Secure on https, Path=/, Max-Age; server/services/sessions.ts `sessionCookieOf`), for this process's
// APP_ORIGIN, and the buyer's readable `userInfo` beside it.

/** The `userInfo` cookie the pages read (docs/rules.md#entities); not a credential, so never prefixed. */
export const USER_INFO_COOKIE = 'userInfo';

/**
 * The name of `kind`'s session cookie for this process's APP_ORIGIN: `__Host-token`, `__Host-ops_token`,
 * `__Host-safety_token` on https, else `token`, `ops_token`, `safety_token` (lib/session-cookie-names.ts).
 */
export const sessionCookieName = (kind: SessionKind): string => sessionCookieOf(kind, env().APP_ORIGIN).name;

/** `kind`'s session token from its cookie under this origin's name (the other name is ignored), or undefined. */
export function readSessionCookie(c: Context, kind: SessionKind): string | undefined {
  return getCookie(c, sessionCookieName(kind));
}

/**
 * Sets `kind`'s session cookie to `token` with the kind's attributes: HttpOnly, SameSite (Lax for the buyer, Strict for
 * the console and the safety centre), Max-Age the session's absolute lifetime (90 days, 12 hours, 30 minutes), and on
 * an https APP_ORIGIN the `__Host-` name with Secure, Path=/ and no Domain (RFC 6265bis, "Cookie Name Prefixes").
 */
export function setSessionCookie(c: Context, kind: SessionKind, token: string): void {
  const { name, ...attributes } = sessionCookieOf(kind, env().APP_ORIGIN);
  setCookie(c, name, token, attributes);
}

/** Removes `kind`'s session cookie (Max-Age=0); a `__Host-` one is removed with the Secure and Path=/ it needs. */
export function clearSessionCookie(c: Context, kind: SessionKind): void {
  const { name, secure, path } = sessionCookieOf(kind, env().APP_ORIGIN);
  deleteCookie(c, name, { secure, path });
}

/**
 * Signs a buyer in on the browser: the session cookie (`setSessionCookie`) and the readable `userInfo` cookie holding
 * `email` and `paymentCount` only (docs/rules.md#entities), with the session's Max-Age, SameSite=Lax, Secure on https.
 */
export function setBuyerCookies(c: Context, token: string, info: { email: string; paymentCount: number }): void {
  setSessionCookie(c, 'buyer', token);
  const { secure, maxAge } = sessionCookieOf('buyer', env().APP_ORIGIN);
  setCookie(c, USER_INFO_COOKIE, JSON.stringify({ email: info.email, paymentCount: info.paymentCount }), {
    sameSite: 'Lax',
    secure,
    path: '/',
    maxAge,
  });
}

/** Removes both of the buyer's cookies (sign-out, or a dead session). */
export function clearBuyerCookies(c: Context): void {
  clearSessionCookie(c, 'buyer');
  deleteCookie(c, USER_INFO_COOKIE, { path: '/', secure: sessionCookieOf('buyer', env().APP_ORIGIN).secure });
}
