import { getLocale, getTranslations } from 'next-intl/server';
import { BackButton } from '@/components/ui/back-button';
import { ClientMessages } from '@/components/ui/client-messages';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';

/**
 * Shown, with status 404, when a page calls notFound() and for `/404/` (SPEC §2: 'This page could not be found' with a
 * BACK button that goes back, or to the home page of the language when there is no history).
 */
export default async function LocaleNotFound() {
  const t = await getTranslations('NotFound');
  const prefix = prefixOf((await getLocale()) as AppLocale);
  return (
    <div className="flex flex-col items-center gap-6 py-16 text-center">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <ClientMessages namespaces={['NotFound']}>
        <BackButton fallbackHref={`${prefix}/`} />
      </ClientMessages>
    </div>
  );
}
