import { localeOfPrefix, localePrefixOf, routing, type Locale } from '../../i18n/routing';
import { PAGES } from './pages';
import { TRACKING_PARAMS } from './tracking-params';

/**
 * Routing rules of docs/rules.md#routes as plain functions; proxy.ts only wires them to requests.
 * Paths here are pathnames; `search` is the raw query string including its leading '?', or ''.
 */

/** A locale of the site: the one list is i18n/routing.ts (next-intl's routing config). */
export type AppLocale = Locale;

/** The URL prefixes of the locales that have one (`/id`, `/es`, `/ph`), from i18n/routing.ts. */
export const LOCALE_PREFIXES: readonly string[] = routing.locales.map(localePrefixOf).filter(Boolean);

/**
 * Landing pages (docs/rules.md#routes): where ads and search send visitors; each logs `landing_view` (lib/tracking/page.ts). A
 * signed-in visitor asking for one is sent to the dashboard, except on the free tools (`signedInRedirects`).
 */
export const LANDING_PATHS = ['/', '/phone-finder/', '/gps-locator/', '/locate/', '/phone-locate/', '/ip-tracker/'];

/**
 * The free tools: served to everyone, signed in or not — the reverse phone lookup, the IP tracker and the username
 * lookup work the same for a subscriber, who would otherwise be sent to My locations and never reach them.
 */
export const FREE_TOOL_PATHS = ['/phone-finder/', '/ip-tracker/', '/username-lookup/'];

/** Pages that exist (lib/routing/pages.ts: without locale prefix, with trailing slash). Anything else redirects to the locale's home. */
export const PAGE_PATHS: ReadonlySet<string> = new Set(Object.keys(PAGES));

/** Public paths served from another app folder (Next reserves a `404` route segment). */
const INTERNAL_PATHS: Record<string, string> = { '/404/': '/page-not-found/' };

/** Tracking parameters carried over by redirects and in-app links (docs/rules.md#routes), from their own small module. */
export { TRACKING_PARAMS };

/** Splits a pathname into its locale, URL prefix and the rest (always starting with '/'). */
export function splitLocale(pathname: string): { locale: AppLocale; prefix: string; rest: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const locale = match ? localeOfPrefix(match[1]) : undefined;
  if (match && locale) return { locale, prefix: `/${match[1]}`, rest: match[2] ?? '' };
  return { locale: routing.defaultLocale, prefix: '', rest: pathname || '/' };
}

export type RouteDecision =
  | { kind: 'redirect'; status: 301 | 302; location: string }
  | { kind: 'page'; locale: AppLocale; prefix: string; rest: string; internalPath: string };

/**
 * Decides what to do with a page request (docs/rules.md#routes):
 * - a path without its trailing slash, a bare language path included, gets a 301 to the same path with the slash,
 *   query kept (`/es?x=1` → `/es/?x=1`);
 * - an unknown path redirects (302) to the home page of the same language prefix, query kept (`/es/nope/` → `/es/`);
 *   an unknown first segment is part of an English path;
 * - a known page is served from `app/[locale]` at `internalPath`.
 */
export function routeRequest(pathname: string, search: string): RouteDecision {
  const { locale, prefix, rest } = splitLocale(pathname);
  if (!pathname.endsWith('/')) return { kind: 'redirect', status: 301, location: `${pathname}/${search}` };
  if (!PAGE_PATHS.has(rest)) return { kind: 'redirect', status: 302, location: `${prefix}/${search}` };
  return { kind: 'page', locale, prefix, rest, internalPath: `/${locale}${INTERNAL_PATHS[rest] ?? rest}` };
}

/**
 * Where `/` sends a visitor who chose a language before (docs/rules.md#entities `lang` cookie): a 302 to that language's
 * home page, query kept, for a remembered `id`, `es` or `en-PH`; null for English, no cookie, an unknown value, or any
 * other path (every other URL names its language itself, so it is served as asked and stays statically rendered).
 */
export function rememberedLanguageRedirect(pathname: string, search: string, lang: string | undefined): string | null {
  if (pathname !== '/' || !lang) return null;
  const prefix = localePrefixOf(lang);
  return prefix ? `${prefix}/${search}` : null;
}

/** Whether a signed-in visitor asking for `rest` (path without prefix) goes to the dashboard instead. */
export function isLandingPath(rest: string): boolean {
  return LANDING_PATHS.includes(rest);
}

/**
 * The query of a deliberate "Buy again" (My locations, Billing and the status page of a refunded order, when no
 * subscription is left; docs/rules.md#routes): with it the home page's locate box is served to a
 * signed-in buyer too, whose order is then attached to the account.
 */
export const BUY_AGAIN_QUERY = 'buy=again';

/** Where "Buy again" leads, without locale prefix: the home page's locate box (`#top`). */
export const BUY_AGAIN_PATH = `/?${BUY_AGAIN_QUERY}#top`;

/**
 * "Buy again" for the number of the buyer's last request or order (`phone`, as shown: international format), so the
 * locate box opens with it and the account's e-mail filled in rather than empty (BUY_AGAIN_PATH without a number).
 */
export function buyAgainPath(phone?: string | null): string {
  return phone ? `/?${BUY_AGAIN_QUERY}&phone=${encodeURIComponent(phone)}#top` : BUY_AGAIN_PATH;
}

/**
 * The number a "Buy again" address (`search`, the query with or without `?`) carries for the locate box, or null when
 * the address is not a Buy again (buyAgainPath).
 */
export function buyAgainPhone(search: string): string | null {
  const query = new URLSearchParams(search);
  const [name, value] = BUY_AGAIN_QUERY.split('=');
  return query.get(name) === value ? (query.get('phone') ?? '') : null;
}

/**
 * Whether a signed-in visitor asking for `rest` with query `search` is sent to the dashboard: landing pages, the free
 * tools excepted, and not when asked to buy again (BUY_AGAIN_QUERY).
 */
export function signedInRedirects(rest: string, search = ''): boolean {
  const [name, value] = BUY_AGAIN_QUERY.split('=');
  if (new URLSearchParams(search).get(name) === value) return false;
  return isLandingPath(rest) && !FREE_TOOL_PATHS.includes(rest);
}

/** Where a signed-in visitor is sent: the dashboard locations page under the same prefix, query kept. */
export function dashboardLocation(prefix: string, search: string): string {
  return `${prefix}/dashboard/locations/${search}`;
}

/** The tracking parameters present in `search`, as a query string ('' when none). */
export function trackingQuery(search: string): string {
  const params = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of TRACKING_PARAMS) {
    const value = params.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `?${query}` : '';
}

/**
 * A `?next=` path to return to after sign-in (the page that asked for a session), kept only when it is a
 * path of this site (`/…`, not `//host` or a scheme) and not a sign-in page; otherwise null.
 */
export function safeNext(value: string | null): string | null {
  if (!value || !/^\/(?!\/)[^\s\\]*$/.test(value) || value.includes('://')) return null;
  return /\/(login|forget|reset)\/?(\?|$)/.test(value) ? null : value;
}
