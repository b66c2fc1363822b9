import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { DashboardNav } from '@/components/dashboard/dashboard-nav';
import type { Locale } from '@/i18n/routing';
import { appManifestPath } from '@/lib/seo';
import { dataLeakCheckConfigured } from '@/server/providers/breaches';

/** The dashboard installs as an app (lib/seo.ts `appManifestPath`, app/app.webmanifest/route.ts). */
export async function generateMetadata({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> {
  const { locale } = await params;
  return { manifest: appManifestPath(locale) };
}

/**
 * Every dashboard page (`/dashboard/*`) starts with the signed-in navigation: My locations, Billing, Data leaks and My
 * account. The Data leaks tab is listed only where this server has the check configured (HIBP_API_KEY, read when the
 * page is served — `connection()` keeps these pages out of the static build, so a server given the key later lists it
 * at once); the page itself still says "not configured here" to anyone who opens its address.
 */
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  await connection();
  const locale = (await params).locale as Locale;
  const t = await getTranslations({ locale });
  const items: [string, string][] = [
    ['/dashboard/locations/', t('Nav.dashboard')],
    ['/dashboard/billing/', t('Nav.billing')],
    ...(dataLeakCheckConfigured() ? [['/dashboard/data-leaks/', t('Nav.dataLeaks')] as [string, string]] : []),
    ['/dashboard/account/', t('Auth.account')],
  ];
  return (
    <>
      <DashboardNav locale={locale} label={t('Nav.dashboardNav')} items={items} />
      {children}
    </>
  );
}
