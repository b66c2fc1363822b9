import { describe, expect, it } from 'vitest';
import { getPathname } from '@/i18n/navigation';
import { languageOf, languages, localeOfPrefix, localePath, localePrefixOf, localeUrl, routing } from '@/i18n/routing';
import { PAGE_PATHS, splitLocale } from '@/lib/routing/rules';

/** The one locale list (i18n/routing.ts) against the URLs of docs/rules.md#routes. */
describe('i18n routing (docs/decisions/0011-next-intl-owns-locales-and-urls.md)', () => {
  it('gives each locale the prefix of docs/rules.md#routes', () => {
    expect(routing.locales.map(localePrefixOf)).toEqual(['', '/id', '/es', '/ph']);
    expect(localePrefixOf('fr')).toBe('');
    expect(localeOfPrefix('ph')).toBe('en-PH');
    expect(localeOfPrefix('es')).toBe('es');
    expect(localeOfPrefix('en-PH')).toBeUndefined();
    expect(localeOfPrefix('en')).toBeUndefined();
  });

  it('derives the catalogue languages from the locales', () => {
    expect(languages).toEqual(['en', 'id', 'es']);
    expect(languageOf('en-PH')).toBe('en');
    expect(languageOf('ES')).toBe('es');
    expect(languageOf('id-ID')).toBe('id');
    expect(languageOf('fr')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
  });

  it('builds the same paths as next-intl getPathname for every page, locale and a query', () => {
    for (const locale of routing.locales) {
      for (const page of PAGE_PATHS) {
        expect(localePath(locale, page)).toBe(getPathname({ locale, href: page }));
        expect(splitLocale(localePath(locale, page))).toMatchObject({ locale, rest: page });
      }
      expect(localePath(locale, '/withdraw/?token=a-b')).toBe(
        getPathname({ locale, href: { pathname: '/withdraw/', query: { token: 'a-b' } } }),
      );
      expect(localePath(locale, '/?x=1')).toBe(getPathname({ locale, href: '/?x=1' }));
    }
  });

  it('keeps the slash of a locale home page, which next-intl alone drops', () => {
    expect(getPathname({ locale: 'es', href: '/' })).toBe('/es/');
    expect(getPathname({ locale: 'en-PH', href: '/' })).toBe('/ph/');
    expect(getPathname({ locale: 'en', href: '/' })).toBe('/');
    expect(getPathname({ locale: 'id', href: '/#top' })).toBe('/id/#top');
  });

  it('writes absolute URLs on an origin with or without its slash', () => {
    expect(localeUrl('https://example.test/', 'en-PH', '/location/?c=x')).toBe('https://example.test/ph/location/?c=x');
    expect(localeUrl('https://example.test', 'en', '/withdraw/')).toBe('https://example.test/withdraw/');
  });
});
