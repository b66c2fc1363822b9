/**
 * What every call to the API carries (docs/rules.md#api), without a transport: the base URL, the constant headers and
 * the form-encoded body with the tracking fields. The axios client (lib/api/client.ts) and the `fetch` calls
 * (lib/api/fetch.ts) both build their requests from here, so the two cannot drift.
 */

/** The API's base path. */
export const API_BASE = '/api_f/v1';

/** The `website_type` header's value for this site (docs/rules.md#api). */
export const WEBSITE_TYPE = '7';

/** `Accept-Language` for a locale: `en-PH` → `en-PH,en;q=0.9`, `es` → `es`. */
export function acceptLanguage(locale: string): string {
  const lang = locale.split('-')[0];
  return lang === locale ? locale : `${locale},${lang};q=0.9`;
}

/** The headers of every call: `website_type` 7 (this site) and the page's language. */
export function baseHeaders(language: string): Record<string, string> {
  return { website_type: WEBSITE_TYPE, 'Accept-Language': acceptLanguage(language) };
}

/** The tracking fields that have a value (undefined and '' are not sent). */
export function presentFields(
  fields: Record<string, string | number | undefined> | undefined,
): Record<string, string | number> {
  return Object.fromEntries(Object.entries(fields ?? {}).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;
}

/**
 * The tracking fields of a GET's query: those with a value, without `os` (docs/rules.md#api: os is not sent on GET).
 */
export function queryFields(
  fields: Record<string, string | number | undefined> | undefined,
): Record<string, string | number> {
  const { os: _os, ...query } = presentFields(fields);
  return query;
}

/** A form-encoded body: `tracking`, then `data` (which wins on a shared name), without undefined or null values. */
export function formBody(
  tracking: Record<string, unknown>,
  data: Record<string, unknown> | undefined,
): URLSearchParams {
  return new URLSearchParams(
    Object.entries({ ...tracking, ...data })
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, String(v)]),
  );
}

/**
 * The method and path of a call keyed `METHOD /path` (lib/contracts/calls.ts `API_CALLS`), each `{name}` of the path
 * replaced by `params[name]` %-encoded (RFC 3986 `encodeURIComponent`): `('GET /usernameLookup/{id}', { id: 'a b' })` →
 * `{ method: 'GET', path: '/usernameLookup/a%20b' }`. A missing parameter is sent as `undefined`, which the route
 * refuses (its types require every one).
 */
export function callTarget(call: string, params: Record<string, string> = {}): { method: string; path: string } {
  const space = call.indexOf(' ');
  const path = call.slice(space + 1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
  return { method: call.slice(0, space), path };
}
