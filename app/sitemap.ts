import type { MetadataRoute } from 'next';
import { routing } from '@/i18n/routing';
import { INDEXED_PAGES, alternatesOf, urlOf } from '@/lib/seo';

/** sitemap.xml: every public page in every locale, each with its hreflang alternates. */
export default function sitemap(): MetadataRoute.Sitemap {
  return INDEXED_PAGES.flatMap((path) =>
    routing.locales.map((locale) => ({
      url: urlOf(locale, path),
      changeFrequency: 'monthly' as const,
      priority: path === '/' ? 1 : 0.6,
      alternates: { languages: alternatesOf(path) },
    })),
  );
}
