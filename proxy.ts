import { NextResponse, type NextRequest } from 'next/server';
import { dashboardLocation, isLandingPath, rememberedLanguageRedirect, routeRequest } from './lib/routing/rules';

/**
 * Next 16 proxy (formerly middleware): wires the rules of lib/routing to requests (SPEC §2). A visitor with a `token`
 * cookie asking for the home page or a landing page is checked against the API; a live session goes to the
 * dashboard, a dead one has its cookie cleared and sees the page (no loop). `/` honours a language the visitor chose
 * before (`lang` cookie, issue 13 §7).
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const remembered = rememberedLanguageRedirect(pathname, search, request.cookies.get('lang')?.value);
  if (remembered) return NextResponse.redirect(new URL(remembered, request.url), 302);
  const decision = routeRequest(pathname, search);
  if (decision.kind === 'redirect') {
    return NextResponse.redirect(new URL(decision.location, request.url), decision.status);
  }
  const target = new URL(`${decision.internalPath}${search}`, request.url);
  const token = request.cookies.get('token')?.value;
  if (token && isLandingPath(decision.rest)) {
    const session = await checkSession(request, token);
    if (session === 'live') {
      return NextResponse.redirect(new URL(dashboardLocation(decision.prefix, search), request.url), 302);
    }
    if (session === 'dead') {
      const response = NextResponse.rewrite(target);
      response.cookies.delete('token');
      return response;
    }
  }
  // `/404/` is the not-found page: served with a real 404 status (issue 13 §10).
  return NextResponse.rewrite(target, decision.rest === '/404/' ? { status: 404 } : undefined);
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

export const config = {
  // Everything except the API (`/api_f/…` and the ad-event path `/api_{hash}`), Next's assets, the operator console
  // (`/ops/`, outside the locale prefixes) and files with an extension (favicon.ico, robots.txt, images).
  matcher: ['/((?!api_|_next|ops(?:/|$)|.*\\..*).*)'],
};
