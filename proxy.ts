import { NextResponse, type NextRequest } from 'next/server';
import { cookieNameFor, SESSION_COOKIE_BASE } from './lib/session-cookie-names';
import { dashboardLocation, rememberedLanguageRedirect, routeRequest, signedInRedirects } from './lib/routing/rules';

/**
 * Next 16 proxy (formerly middleware): wires the rules of lib/routing to requests (docs/rules.md#routes). A visitor with a session
 * cookie (`__Host-token` when APP_ORIGIN is https, else `token`: lib/session-cookie-names.ts, the API's own rule)
 * asking for the home page or a landing page is checked against the API; a live session goes to the dashboard, a
 * dead one has its cookie cleared and sees the page (no loop). `/` honours a language the visitor chose
 * before (`lang` cookie).
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const remembered = rememberedLanguageRedirect(pathname, search, request.cookies.get('lang')?.value);
  if (remembered) return NextResponse.redirect(new URL(remembered, request.url), 302);
  const decision = routeRequest(pathname, search);
  if (decision.kind === 'redirect') {
    return NextResponse.redirect(new URL(decision.location, request.url), decision.status);
  }
  // Spanish and Indonesian pages are served at their own path; English and /ph/ ones under their locale folder.
  const rewrite = (init?: ResponseInit) =>
    NextResponse.rewrite(new URL(`${decision.internalPath}${search}`, request.url), init);
  const serve = () => (decision.internalPath === pathname ? NextResponse.next() : rewrite());
  const cookieName = cookieNameFor(SESSION_COOKIE_BASE, process.env.APP_ORIGIN);
  const token = request.cookies.get(cookieName)?.value;
  if (token && signedInRedirects(decision.rest, search)) {
    const session = await checkSession(request, token);
    if (session === 'live') {
      return NextResponse.redirect(new URL(dashboardLocation(decision.prefix, search), request.url), 302);
    }
    if (session === 'dead') {
      const response = serve();
      // A `__Host-` cookie is only replaced by one with the same attributes (Secure, Path=/, no Domain).
      response.cookies.set(cookieName, '', {
        path: '/',
        maxAge: 0,
        httpOnly: true,
        sameSite: 'lax',
        secure: cookieName.startsWith('__Host-'),
      });
      return response;
    }
  }
  // `/404/` is the not-found page: served with a real 404 status.
  return decision.rest === '/404/' ? rewrite({ status: 404 }) : serve();
}

/** Asks the API whether `token` names a live session: 'live', 'dead' (401), or 'unknown' (API unreachable). */
async function checkSession(request: NextRequest, token: string): Promise<'live' | 'dead' | 'unknown'> {
  try {
    const res = await fetch(new URL('/api_f/v1/admin/userSession/current', request.nextUrl.origin), {
      headers: { _chamspy_token: token },
      signal: AbortSignal.timeout(3000),
      cache: 'no-store',
    });
    if (res.ok) return 'live';
    return res.status === 401 ? 'dead' : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Where the proxy runs: invoking it at all costs a static page about a third of its throughput, so it
 * runs only where it has work. `/es/…` and `/id/…` pages that exist are served as they are (their internal path is
 * their public path): the proxy is skipped for them unless a session cookie (`token` or `__Host-token`) may send a
 * landing-page visitor to the dashboard. It still runs for English and `/ph/` paths (rewritten to `/en/…`,
 * `/en-PH/…`), `/`  (the `lang` choice), `/es/404/`, unknown paths (302) and paths without their trailing slash
 * (301). Never for the API (`/api_f/…` and the ad-event path `/api_{hash}`), Next's assets, the operator console
 * (`/ops/`) or files with an extension. The page list must equal PAGE_PATHS minus `/404/` (tests/proxy-matcher.test.ts checks it and every
 * decision against lib/routing). Next reads this object statically: literals only.
 */
export const config = {
  matcher: [
    '/((?!api_|_next|ops(?:/|$)|.*\\..*|(?:es|id)/(?:|checkout/|checkout/wallet/|paystatus/|pay-success/|cancel/|cancel-subscription/|withdraw/|phone-finder/|gps-locator/|ip-tracker/|about-us/|privacy-policy/|terms-of-use/|pay-method/|intellectual/|contact-us/|faq/|cookie/|location/|safety/|map/|getLocation/|locate/|phone-locate/|reveal-location/|username-lookup/|dashboard/locations/|dashboard/account/|dashboard/billing/|dashboard/billing/consent/|dashboard/data-leaks/|login/|forget/|reset/|dev/outbox/)$).*)',
    { source: '/(es|id)/((?!.*\\..*).*)', has: [{ type: 'cookie', key: 'token' }] },
    { source: '/(es|id)/((?!.*\\..*).*)', has: [{ type: 'cookie', key: '__Host-token' }] },
  ],
};
