import type { MetadataRoute } from 'next';
import { PRIVATE_PAGES, SITE_ORIGIN } from '@/lib/seo';

/** robots.txt: the API, dashboards, consent and payment pages are disallowed in every locale. */
export default function robots(): MetadataRoute.Robots {
  const disallow = ['/api_f/', ...PRIVATE_PAGES.flatMap((p) => [p, `/*${p}`])];
  return { rules: [{ userAgent: '*', allow: '/', disallow }], sitemap: `${SITE_ORIGIN}/sitemap.xml` };
}
