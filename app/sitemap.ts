import type { MetadataRoute } from 'next';
import { INDEXED_PAGES, alternatesOf, urlOf } from '@/lib/seo';

/** sitemap.xml: every public page in every locale, each with its hreflang alternates. */
export default function sitemap(): MetadataRoute.Sitemap {
  const locales = ['en', 'id', 'es', 'en-PH'] as const;
  return INDEXED_PAGES.flatMap((path) =>
    locales.map((locale) => ({
      url: urlOf(locale, path),
      changeFrequency: 'monthly' as const,
      priority: path === '/' ? 1 : 0.6,
      alternates: { languages: alternatesOf(path) },
    })),
  );
}
