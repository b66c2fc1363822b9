import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { DashboardNav } from '@/components/dashboard/dashboard-nav';
import type { Locale } from '@/i18n/routing';
import { prefixOf } from '@/lib/routing/rules';

/** Every dashboard page (`/dashboard/*`) starts with the signed-in navigation (issue 13 §1). */
export default async function DashboardLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const locale = (await params).locale as Locale;
  const t = await getTranslations({ locale });
  return (
    <>
      <DashboardNav
        prefix={prefixOf(locale)}
        label={t('Nav.dashboardNav')}
        items={[
          ['/dashboard/locations/', t('Nav.dashboard')],
          ['/dashboard/billing/', t('Nav.billing')],
          ['/dashboard/data-leaks/', t('Nav.dataLeaks')],
          ['/dashboard/account/', t('Auth.account')],
        ]}
      />
      {children}
    </>
  );
}
