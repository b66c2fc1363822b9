/**
 * Names of the session cookies, shared by the API (server/api/session-cookies.ts) and proxy.ts, which must agree.
 *
 * On an https origin both carry the `__Host-` prefix (RFC 6265bis §4.1.3.2, "cookie prefixes"): a browser then only
 * accepts the cookie when it is Secure, has Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot
 * plant or overwrite a session cookie ("cookie tossing"). Browsers refuse prefixed cookies from http origins, so a
 * plain origin (local development, tests) keeps the plain names. The readable `userInfo` cookie is no credential
 * and keeps its docs/rules.md#entities name.
 */

/** The buyer's session cookie without its prefix (docs/rules.md#security). */
export const SESSION_COOKIE_BASE = 'token';
/** The operator console's session cookie without its prefix. */
export const OPS_COOKIE_BASE = 'ops_token';
/** The phone owner's safety-centre session cookie without its prefix (one number, 30 minutes; not a buyer account). */
export const SAFETY_COOKIE_BASE = 'safety_token';

/** Whether cookies for `origin` (APP_ORIGIN, e.g. `https://chamspy.example`) take the `__Host-` prefix: https only. */
export function hostPrefixed(origin: string | undefined): boolean {
  return (origin ?? '').toLowerCase().startsWith('https:');
}

/** The buyer's session cookie name for `origin`: `__Host-token` on https, `token` otherwise. */
export function sessionCookieName(origin: string | undefined): string {
  return hostPrefixed(origin) ? `__Host-${SESSION_COOKIE_BASE}` : SESSION_COOKIE_BASE;
}

/** The console's session cookie name for `origin`: `__Host-ops_token` on https, `ops_token` otherwise. */
export function opsCookieName(origin: string | undefined): string {
  return hostPrefixed(origin) ? `__Host-${OPS_COOKIE_BASE}` : OPS_COOKIE_BASE;
}

/** The safety centre's session cookie name for `origin`: `__Host-safety_token` on https, `safety_token` otherwise. */
export function safetyCookieName(origin: string | undefined): string {
  return hostPrefixed(origin) ? `__Host-${SAFETY_COOKIE_BASE}` : SAFETY_COOKIE_BASE;
}
