import { createNavigation } from 'next-intl/navigation';
import { localeOfPrefix, routing } from './routing';

const navigation = createNavigation(routing);

/**
 * next-intl's navigation over the one routing config (i18n/routing.ts; https://next-intl.dev/docs/routing/navigation):
 * `Link` (a next/link whose `href` is a path without locale prefix, prefixed for the current or given `locale`),
 * `redirect`, `usePathname` (the current path without prefix) and `useRouter`. Paths keep their trailing slash
 * (`trailingSlash: true`, docs/rules.md#routes).
 */
export const { Link, redirect, usePathname, useRouter } = navigation;

/**
 * next-intl's `getPathname`: the public path of `href` in `locale` (`{ locale: 'es', href: '/faq/' }` → `/es/faq/`;
 * `href` may be `{ pathname, query }`). One difference: a locale's home page keeps its slash (`/es/`, not
 * next-intl's `/es`), since a path without it is answered with a 301 (docs/rules.md#routes) and Next's `Link` does
 * not add it (`skipTrailingSlashRedirect`). next-intl's own `Link href="/"` drops it the same way, so a link to a
 * home page takes its `href` from this function.
 *
 * Pages and services do not import this module today: the queue worker cannot load `next-intl/navigation`, and a
 * page importing it ships next-intl's `Link` to the browser (+3.4 KiB gz on the home page). They use `localePath`
 * (i18n/routing.ts), which tests/i18n-routing.test.ts checks equals this function for every page and locale
 * (docs/decisions/0011-next-intl-owns-locales-and-urls.md).
 */
export function getPathname(args: Parameters<typeof navigation.getPathname>[0]): string {
  const path = navigation.getPathname(args);
  return path.replace(/^\/([^/?#]+)(?=$|[?#])/, (whole, segment: string) =>
    localeOfPrefix(segment) ? `${whole}/` : whole,
  );
}
