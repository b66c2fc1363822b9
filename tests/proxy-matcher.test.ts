import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { describe, expect, it } from 'vitest';
import { config } from '../proxy';
import {
  signedInRedirects,
  PAGE_PATHS,
  LOCALE_PREFIXES,
  rememberedLanguageRedirect,
  routeRequest,
} from '@/lib/routing/rules';

const nextConfig = { trailingSlash: true };
const runs = (url: string, cookies?: Record<string, string>) =>
  unstable_doesMiddlewareMatch({ config, url, cookies, nextConfig });

/** Every public path the tests try: each page under each prefix, without its slash, and unknown ones. */
const prefixes = ['', ...LOCALE_PREFIXES];
const paths = [
  ...prefixes.flatMap((prefix) =>
    [...PAGE_PATHS].flatMap((page) => [`${prefix}${page}`, `${prefix}${page}`.replace(/\/$/, '')]),
  ),
  '/es/nope/',
  '/id/dashboard/',
  '/es/page-not-found/',
  '/en/',
  '/en-PH/faq/',
  '/es/es/',
  '/es/faq/faq/',
].filter((p) => p !== '');

/**
 * The proxy may be skipped only where it would do nothing: the page is served at its own path (no
 * redirect, no rewrite) and no session or language cookie changes the answer.
 */
function proxyHasWork(path: string, cookies: Record<string, string>): boolean {
  if (rememberedLanguageRedirect(path, '', cookies.lang)) return true;
  const decision = routeRequest(path, '');
  if (decision.kind === 'redirect') return true;
  if (decision.internalPath !== path || decision.rest === '/404/') return true;
  // The session cookie is `__Host-token` on an https origin, `token` on http (lib/session-cookie-names.ts).
  return !!(cookies.token ?? cookies['__Host-token']) && signedInRedirects(decision.rest);
}

describe('proxy matcher', () => {
  it.each<Record<string, string>>([
    {},
    { token: 't' },
    { '__Host-token': 't' },
    { lang: 'es' },
    { token: 't', lang: 'id' },
  ])('runs the proxy wherever it has work, cookies %j', (cookies) => {
    const missed = paths.filter((path) => proxyHasWork(path, cookies) && !runs(path, cookies));
    expect(missed).toEqual([]);
  });

  it('skips it for the /es/ and /id/ pages that are served as they are, without a session cookie', () => {
    const skipped = [...PAGE_PATHS].filter((p) => p !== '/404/').flatMap((p) => [`/es${p}`, `/id${p}`]);
    expect(skipped.filter((path) => runs(path))).toEqual([]);
    // …but with a session cookie a landing page may send the visitor to the dashboard.
    expect(runs('/es/', { token: 't' })).toBe(true);
    expect(runs('/id/gps-locator/', { token: 't' })).toBe(true);
    expect(runs('/es/', { '__Host-token': 't' })).toBe(true);
  });

  it('never runs for the API, assets, the operator console or files', () => {
    for (const path of [
      '/api_f/v1/health',
      '/api_abc123/',
      '/_next/static/x.js',
      '/ops/',
      '/robots.txt',
      '/es/icon.svg',
    ])
      expect(runs(path, { token: 't' }), path).toBe(false);
  });
});
