import { setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { ConsentPanel } from '@/components/share/consent-panel';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** `/location?c=CODE`: the phone owner's consent page (works in any phone browser, no app). */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ClientMessages namespaces={['Consent']}>
      <Suspense>
        <ConsentPanel />
      </Suspense>
    </ClientMessages>
  );
}
