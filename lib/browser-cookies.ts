import Cookies from 'js-cookie';

/**
 * The browser's cookies, read and written through js-cookie (which decodes and encodes values as RFC 6265 allows), so
 * no component parses `document.cookie` by hand. Names and meanings: docs/rules.md#entities. The session cookie is
 * HttpOnly and never seen here (docs/decisions/0001-session-is-an-httponly-cookie.md).
 */

/** How long a preference cookie (`lang`, `acceptCookie`, `website_type`) is kept, in seconds: one year. */
export const PREFERENCE_MAX_AGE_S = 31_536_000;

/** Cookie `name`'s decoded value, or undefined when the page has none (or outside a browser). */
export function readCookie(name: string): string | undefined {
  return Cookies.get(name);
}

/** Every cookie the page can read, name → decoded value ({} outside a browser). */
export function readCookies(): Record<string, string> {
  return typeof document === 'undefined' ? {} : Cookies.get();
}

/**
 * Writes a first-party preference cookie that the pages and the server read: `Max-Age` one year, `Path=/`,
 * `SameSite=Lax`, and `Secure` when the page is served over https (on http a Secure cookie would not be stored).
 */
export function writePreferenceCookie(name: string, value: string): void {
  Cookies.set(name, value, {
    'max-age': String(PREFERENCE_MAX_AGE_S),
    path: '/',
    sameSite: 'Lax',
    secure: location.protocol === 'https:',
  });
}
