import { setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { MapView } from '@/components/dashboard/map-view';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** `/map?id=ID`: the subscriber's map of one location request. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ClientMessages namespaces={['Map']}>
      <Suspense>
        <MapView />
      </Suspense>
    </ClientMessages>
  );
}
