import { setRequestLocale } from 'next-intl/server';
import { Suspense, type ComponentType } from 'react';
import type { Locale } from '@/i18n/routing';
import type { Messages } from '@/i18n/messages';
import { ClientMessages } from './client-messages';

/**
 * A page that is one client island reading its query string (checkout, consent, map, dashboard): static per locale,
 * given only the `namespaces` of messages it uses, wrapped in Suspense for `useSearchParams`.
 */
export function clientPage(Island: ComponentType, namespaces: (keyof Messages)[]) {
  return async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
    const { locale } = await params;
    setRequestLocale(locale);
    return (
      <ClientMessages namespaces={namespaces}>
        <Suspense>
          <Island />
        </Suspense>
      </ClientMessages>
    );
  };
}
