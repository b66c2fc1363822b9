import { setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { LocationList } from '@/components/dashboard/location-list';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** `/dashboard/locations`: the subscriber's location requests. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ClientMessages namespaces={['Dashboard']}>
      <Suspense>
        <LocationList />
      </Suspense>
    </ClientMessages>
  );
}
