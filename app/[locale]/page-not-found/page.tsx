import { getTranslations, setRequestLocale } from 'next-intl/server';
import { BackButton } from '@/components/ui/back-button';
import { ClientMessages } from '@/components/ui/client-messages';
import { localePath, type Locale } from '@/i18n/routing';
import { titled } from '@/lib/page-title';

/** `/404` (docs/rules.md#routes): 'This page could not be found' with a Back button. */
export default async function NotFoundPage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('NotFound');
  return (
    <div className="flex flex-col items-center gap-6 py-16 text-center">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <ClientMessages namespaces={['NotFound']}>
        <BackButton fallbackHref={localePath(locale, '/')} />
      </ClientMessages>
    </div>
  );
}

/** Its own tab title ("Page not found"); not for search engines. */
export const generateMetadata = titled('notFound');
