import 'server-only';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { env } from '../env';
import { SESSION_ABSOLUTE_MS } from '../services/sessions';

/** Session cookie name (ARCHITECTURE §6) and the `userInfo` cookie the pages read (SPEC §3). */
export const SESSION_COOKIE = 'token';
export const USER_INFO_COOKIE = 'userInfo';

const maxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);

/**
 * Sets the session cookie `token` (HttpOnly, SameSite=Lax, Secure when APP_ORIGIN is https, 90 days) and the
 * readable `userInfo` cookie holding `email` and `paymentCount` only (SPEC §3, 90 days).
 */
export function setSessionCookies(c: Context, token: string, info: { email: string; paymentCount: number }): void {
  const secure = env().APP_ORIGIN.startsWith('https:');
  setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: 'Lax', secure, path: '/', maxAge });
  setCookie(c, USER_INFO_COOKIE, JSON.stringify({ email: info.email, paymentCount: info.paymentCount }), {
    sameSite: 'Lax',
    secure,
    path: '/',
    maxAge,
  });
}

/** Removes both cookies (sign-out, or a dead session). */
export function clearSessionCookies(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  deleteCookie(c, USER_INFO_COOKIE, { path: '/' });
}
