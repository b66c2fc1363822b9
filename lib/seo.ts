import type { Metadata } from 'next';
import { localePath, routing, type Locale } from '../i18n/routing';
import { pagesOf } from './routing/pages';

/** The public origin pages are canonical on (APP_ORIGIN at build time; a demo default otherwise). */
export const SITE_ORIGIN = (process.env.APP_ORIGIN || 'http://localhost:3000').replace(/\/$/, '');

/** Indexable pages (path without the locale prefix), for the sitemap and hreflang: lib/routing/pages.ts. */
export const INDEXED_PAGES = pagesOf('indexed');

/**
 * What robots.txt disallows: the folders of the private pages of lib/routing/pages.ts (dashboards, consent, payment,
 * account recovery), each by its first path segment, so `/dashboard/` covers every dashboard page, present and future.
 */
export const PRIVATE_PAGES = [...new Set(pagesOf('private').map((path) => `/${path.split('/')[1]}/`))];

/** The absolute URL of `path` (no prefix, trailing slash) in `locale`. */
export function urlOf(locale: Locale, path: string): string {
  return `${SITE_ORIGIN}${localePath(locale, path)}`;
}

/** hreflang alternates of `path`: every locale of i18n/routing.ts (en, id, es, en-PH) and x-default (English). */
export function alternatesOf(path: string): Record<string, string> {
  return {
    ...Object.fromEntries(routing.locales.map((l) => [l, urlOf(l, path)])),
    'x-default': urlOf(routing.defaultLocale, path),
  };
}

/**
 * Metadata of a public page in `locale`: its own title and description, the canonical URL, hreflang
 * alternates for every locale plus x-default, and Open Graph.
 */
export function pageMetadata(locale: Locale, path: string, title: string, description: string): Metadata {
  const url = urlOf(locale, path);
  return {
    title,
    description,
    alternates: { canonical: url, languages: alternatesOf(path) },
    openGraph: { title, description, url, type: 'website', locale: locale.replace('-', '_') },
  };
}

/** Metadata of a page that must not be indexed (dashboards, consent, payment). */
export const NO_INDEX: Metadata = { robots: { index: false, follow: false } };

/**
 * The web app manifest's address for a locale's pages (app/app.webmanifest/route.ts), linked by the pages a subscriber
 * installs as an app: the dashboard and the map.
 */
export function appManifestPath(locale: string): string {
  return `/app.webmanifest?lang=${encodeURIComponent(locale)}`;
}
