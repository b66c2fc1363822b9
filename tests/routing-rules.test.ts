import { describe, expect, it } from 'vitest';
import {
  rememberedLanguageRedirect,
  safeNext,
  dashboardLocation,
  isLandingPath,
  FREE_TOOL_PATHS,
  signedInRedirects,
  routeRequest,
  splitLocale,
  trackingQuery,
} from '@/lib/routing/rules';

describe('routing rules (docs/rules.md#routes)', () => {
  it('reads the locale from the first segment only', () => {
    expect(splitLocale('/es/map/')).toEqual({ locale: 'es', prefix: '/es', rest: '/map/' });
    expect(splitLocale('/ph/')).toEqual({ locale: 'en-PH', prefix: '/ph', rest: '/' });
    expect(splitLocale('/id')).toEqual({ locale: 'id', prefix: '/id', rest: '' });
    expect(splitLocale('/fr/map/')).toEqual({ locale: 'en', prefix: '', rest: '/fr/map/' });
    expect(splitLocale('/')).toEqual({ locale: 'en', prefix: '', rest: '/' });
  });

  it('gives a bare language path a 301 with the slash, query kept', () => {
    expect(routeRequest('/es', '?x=1')).toEqual({ kind: 'redirect', status: 301, location: '/es/?x=1' });
    expect(routeRequest('/ph', '')).toEqual({ kind: 'redirect', status: 301, location: '/ph/' });
    expect(routeRequest('/map', '?id=1')).toEqual({ kind: 'redirect', status: 301, location: '/map/?id=1' });
  });

  it('sends unknown paths to the home page of the same prefix, query and tracking kept', () => {
    expect(routeRequest('/es/nope/', '?utm_source=a&gclid=b')).toEqual({
      kind: 'redirect',
      status: 302,
      location: '/es/?utm_source=a&gclid=b',
    });
    expect(routeRequest('/xx/yy/', '')).toEqual({ kind: 'redirect', status: 302, location: '/' });
    expect(routeRequest('/en/', '')).toEqual({ kind: 'redirect', status: 302, location: '/' });
  });

  it('serves known pages from app/[locale], /404 from its own folder', () => {
    expect(routeRequest('/ph/map/', '?id=1')).toMatchObject({
      kind: 'page',
      locale: 'en-PH',
      internalPath: '/en-PH/map/',
    });
    expect(routeRequest('/', '')).toMatchObject({ kind: 'page', locale: 'en', internalPath: '/en/' });
    expect(routeRequest('/es/404/', '')).toMatchObject({ kind: 'page', internalPath: '/es/page-not-found/' });
  });

  it('redirects signed-in visitors only from home and landing pages, never from the free tools', () => {
    for (const page of ['/', '/gps-locator/', '/locate/', '/phone-locate/']) expect(signedInRedirects(page)).toBe(true);
    // The free tools stay landing pages for the funnel (landing_view) but are served to signed-in visitors.
    for (const tool of FREE_TOOL_PATHS) expect(signedInRedirects(tool)).toBe(false);
    expect(isLandingPath('/phone-finder/')).toBe(true);
    expect(isLandingPath('/ip-tracker/')).toBe(true);
    expect(FREE_TOOL_PATHS).toEqual(['/phone-finder/', '/ip-tracker/', '/username-lookup/']);
    expect(isLandingPath('/404/')).toBe(false);
    // "Buy again" (BUY_AGAIN_QUERY) serves the home page's locate box to a signed-in buyer; other queries do not.
    expect(signedInRedirects('/', '?buy=again')).toBe(false);
    expect(signedInRedirects('/', '?gclid=1&buy=again')).toBe(false);
    expect(signedInRedirects('/', '?buy=now')).toBe(true);
    expect(signedInRedirects('/', '?gclid=1')).toBe(true);
    expect(isLandingPath('/map/')).toBe(false);
    expect(dashboardLocation('/es', '?wbraid=1')).toBe('/es/dashboard/locations/?wbraid=1');
  });

  it('extracts exactly the tracked parameters', () => {
    expect(trackingQuery('?utm_source=a&foo=1&ttclid=t&keyword=k w')).toBe('?utm_source=a&keyword=k+w&ttclid=t');
    expect(trackingQuery('?foo=1')).toBe('');
  });
});

describe('remembered language (docs/rules.md#entities lang cookie)', () => {
  it('sends / to the language the visitor chose, keeping the query', () => {
    expect(rememberedLanguageRedirect('/', '?gclid=1', 'es')).toBe('/es/?gclid=1');
    expect(rememberedLanguageRedirect('/', '', 'en-PH')).toBe('/ph/');
    expect(rememberedLanguageRedirect('/', '', 'id')).toBe('/id/');
  });
  it('leaves English, no choice, unknown values and every other path alone', () => {
    expect(rememberedLanguageRedirect('/', '', 'en')).toBeNull();
    expect(rememberedLanguageRedirect('/', '', undefined)).toBeNull();
    expect(rememberedLanguageRedirect('/', '', 'fr')).toBeNull();
    expect(rememberedLanguageRedirect('/', '', 'ph')).toBeNull();
    expect(rememberedLanguageRedirect('/faq/', '', 'es')).toBeNull();
    expect(rememberedLanguageRedirect('/id/', '', 'es')).toBeNull();
  });
});

describe('return path after sign-in', () => {
  it('keeps a path of this site', () => {
    expect(safeNext('/reveal-location/')).toBe('/reveal-location/');
    expect(safeNext('/es/map/?id=1')).toBe('/es/map/?id=1');
  });
  it('refuses other sites, schemes, backslashes, sign-in pages and nothing', () => {
    for (const value of [
      '//evil.example/',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/x?u=http://e',
      '/login/',
      '/es/reset/?email=a',
      '',
      null,
    ]) {
      expect(safeNext(value)).toBeNull();
    }
  });
});
