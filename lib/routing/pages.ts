/**
 * Every page of the site, written once (docs/rules.md#routes): its path without the locale prefix, with a trailing
 * slash, and how search engines see it. A new page is one line here; the routing rules (PAGE_PATHS: anything else
 * redirects to the locale's home), the sitemap and hreflang (INDEXED_PAGES), robots.txt (PRIVATE_PAGES) and the
 * browser tests that visit every page all read this table. proxy.ts's matcher is a literal Next.js needs at build time,
 * so a new page is also added there; tests/proxy-matcher.test.ts fails until it is.
 *
 * - `indexed`: listed in the sitemap with hreflang alternates;
 * - `private`: dashboards, consent, payment and account-recovery pages: `Disallow` in robots.txt by their first path
 *   segment (lib/seo.ts), and each page's metadata says `noindex` (lib/page-title.ts);
 * - `unlisted`: served but in neither list (the not-found page).
 */
export const PAGES = {
  '/': 'indexed',
  '/phone-finder/': 'indexed',
  '/gps-locator/': 'indexed',
  '/locate/': 'indexed',
  '/phone-locate/': 'indexed',
  '/ip-tracker/': 'indexed',
  '/username-lookup/': 'indexed',
  '/about-us/': 'indexed',
  '/privacy-policy/': 'indexed',
  '/terms-of-use/': 'indexed',
  '/pay-method/': 'indexed',
  '/intellectual/': 'indexed',
  '/contact-us/': 'indexed',
  '/faq/': 'indexed',
  '/cookie/': 'indexed',
  '/login/': 'indexed',
  '/cancel/': 'indexed',
  '/withdraw/': 'indexed',
  '/forget/': 'private',
  '/reset/': 'private',
  '/location/': 'private',
  '/safety/': 'private',
  '/getLocation/': 'private',
  '/map/': 'private',
  '/reveal-location/': 'private',
  '/checkout/': 'private',
  '/checkout/wallet/': 'private',
  '/paystatus/': 'private',
  '/pay-success/': 'private',
  '/cancel-subscription/': 'private',
  '/dashboard/locations/': 'private',
  '/dashboard/account/': 'private',
  '/dashboard/billing/': 'private',
  '/dashboard/billing/consent/': 'private',
  '/dashboard/data-leaks/': 'private',
  '/dev/outbox/': 'private',
  '/404/': 'unlisted',
} as const satisfies Record<string, 'indexed' | 'private' | 'unlisted'>;

/** A page's path, as a key of PAGES. */
export type PagePath = keyof typeof PAGES;

/** The paths of PAGES whose visibility is `kind`, in the table's order. */
export function pagesOf(kind: (typeof PAGES)[PagePath]): PagePath[] {
  return (Object.keys(PAGES) as PagePath[]).filter((path) => PAGES[path] === kind);
}
