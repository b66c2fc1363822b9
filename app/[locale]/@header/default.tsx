import { SiteHeader } from '@/components/ui/site-header';
import { site } from '@/lib/site';

/**
 * The `@header` slot of the locale layout on every page but the consent page: the site header (menu, tools, language,
 * account). A parallel-route slot (Next.js `default.js`: what a slot shows on a full page load of a path it has no
 * page for), so the consent page can have its own frame without moving the other pages.
 */
export default function Header() {
  return <SiteHeader product={site.product} />;
}
