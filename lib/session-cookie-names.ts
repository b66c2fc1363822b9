/**
 * Names of the session cookies, shared by the session module (server/services/sessions.ts), proxy.ts and the safety
 * centre's page, which must agree.
 *
 * On an https origin all three carry the `__Host-` prefix (RFC 6265bis, "Cookie Name Prefixes"): a browser then only
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

/**
 * A session cookie's name for `origin`: `base` with the `__Host-` prefix on https (`__Host-token`, `__Host-ops_token`,
 * `__Host-safety_token`), `base` alone otherwise (RFC 6265bis, "Cookie Name Prefixes").
 */
export function cookieNameFor(base: string, origin: string | undefined): string {
  return hostPrefixed(origin) ? `__Host-${base}` : base;
}
