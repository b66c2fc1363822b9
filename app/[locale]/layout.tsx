import type { Metadata, Viewport } from 'next';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { OwnerFooter, OwnerHeader } from '@/components/share/owner-shell';
import { OwnerPageSwitch } from '@/components/share/owner-page-switch';
import { Tracker } from '@/components/site/tracker';
import { SiteFooter } from '@/components/site/site-footer';
import { SiteHeader } from '@/components/site/site-header';
import { routing } from '@/i18n/routing';
import { SITE_ORIGIN } from '@/lib/seo';
import { site } from '@/lib/site';
import { ChunkReloadScript, Enhancements } from '@/components/site/enhancements';
import '@/styles/globals.css';

/** Pages are rendered statically for each locale (docs/rules.md#front-end). */
export function generateStaticParams() {
  return routing.locales.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await params;
  const t = await getTranslations({
    locale: hasLocale(routing.locales, locale) ? locale : 'en',
    namespace: 'Metadata',
  });
  return {
    metadataBase: new URL(SITE_ORIGIN),
    title: t('title', { product: site.product }),
    description: t('description'),
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/**
 * Root layout per locale: `<html lang>` is the page's locale (en, id, es, en-PH), the demo ribbon in demo mode, then
 * the page in its frame: the site's header and footer (with the cookie banner, the page tracking and the offline
 * notice) on every page but the owner's consent page, which gets its own (components/share/owner-shell.tsx: the
 * product's name and the privacy policy; no navigation, account menu, cookie banner or tracking), chosen by
 * OwnerPageSwitch from the path.
 */
export default async function LocaleLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!hasLocale(routing.locales, locale)) notFound();
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: 'Footer' });
  return (
    <html lang={locale}>
      <head>
        <ChunkReloadScript />
      </head>
      <body className="flex min-h-screen flex-col">
        {site.demo && (
          <aside
            aria-label={t('demoLabel')}
            className="bg-amber-100 px-4 py-1 text-center text-xs text-amber-950"
            data-testid="demo-ribbon"
          >
            {t('demoRibbon')}
          </aside>
        )}
        <OwnerPageSwitch site={<SiteHeader product={site.product} />} owner={<OwnerHeader product={site.product} />} />
        <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-5 sm:py-8">
          {children}
        </main>
        <OwnerPageSwitch
          site={
            <>
              <SiteFooter company={site.company} />
              <Tracker offline={t('offline')} />
            </>
          }
          owner={
            <>
              <OwnerFooter locale={locale} company={site.company} />
              <Tracker offline={t('offline')} track={false} />
            </>
          }
        />
        <Enhancements />
      </body>
    </html>
  );
}
