import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Tracker } from '@/components/site/tracker';
import { SiteFooter } from '@/components/ui/site-footer';
import type { Locale } from '@/i18n/routing';
import { site } from '@/lib/site';

/**
 * The `@footer` slot of the locale layout on every page but the consent page: the site footer with the cookie banner,
 * and the page's tracking with the offline notice (components/site/tracker.tsx). See `@header/default.tsx`.
 */
export default async function Footer({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  // Set here too: a slot renders apart from the layout (see ../@header/default.tsx).
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: 'Footer' });
  return (
    <>
      <SiteFooter company={site.company} />
      <Tracker offline={t('offline')} />
    </>
  );
}
