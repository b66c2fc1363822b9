import { setRequestLocale } from 'next-intl/server';
import { SiteHeader } from '@/components/ui/site-header';
import type { Locale } from '@/i18n/routing';
import { site } from '@/lib/site';

/**
 * The `@header` slot of the locale layout on every page but the consent page: the site header (menu, tools, language,
 * account). A parallel-route slot (Next.js `default.js`: what a slot shows on a full page load of a path it has no
 * page for), so the consent page can have its own frame without moving the other pages. A slot renders apart from
 * the layout, so it sets the request's locale itself: without it next-intl would read the request headers and every
 * page would turn dynamic instead of static per locale.
 */
export default async function Header({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <SiteHeader product={site.product} />;
}
