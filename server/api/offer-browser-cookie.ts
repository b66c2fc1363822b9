import 'server-only';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { hostPrefixed } from '../../lib/session-cookie-names';
import { env } from '../env';
import { browserKeyOf } from '../services/billing';
import { randomToken } from '../services/tokens';

/**
 * The cookie that tells one browser from another for the first-order discount ("first order from this browser and
 * this address, once": services/billing/first-order-discount.ts `claimFirstOrderDiscount`). A random 128-bit value
 * (base64url), HttpOnly, SameSite=Lax, sent to the API only (Path=/api_f/), Secure on an https origin, one year. It
 * identifies nothing but the browser; the server stores only its SHA-256. Listed with the essential cookies in the
 * cookie policy: it exists only once the visitor asks for a price for their order.
 */
export const OFFER_BROWSER_COOKIE = 'offer_browser';
const MAX_AGE_S = 365 * 24 * 3600;
/** A well-formed cookie value: 128 random bits in base64url (`randomToken(16)`). */
const COOKIE_VALUE = /^[A-Za-z0-9_-]{22}$/;

/**
 * The browser's key (`browserKeyOf` the cookie's value) for this request; a browser without a well-formed cookie gets
 * a new one on this response, so every caller has a key (a browser that keeps no cookies is a new browser each time,
 * and the e-mail address alone then limits the discount).
 */
export function offerBrowserKey(c: Context): string {
  const known = readBrowserKey(c);
  if (known) return known;
  const value = randomToken(16);
  setCookie(c, OFFER_BROWSER_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: hostPrefixed(env().APP_ORIGIN),
    path: '/api_f/',
    maxAge: MAX_AGE_S,
  });
  return browserKeyOf(value);
}

/**
 * The browser's key (`browserKeyOf` its `offer_browser` cookie) when it already has a well-formed cookie, else null;
 * sets nothing (the owner's consent page and New request must not plant a cookie). What tells the requester's browser
 * apart for the owner's protections (services/locate/requester-marks.ts).
 */
export function readBrowserKey(c: Context): string | null {
  const value = getCookie(c, OFFER_BROWSER_COOKIE);
  return value && COOKIE_VALUE.test(value) ? browserKeyOf(value) : null;
}
