import { getLocale, getTranslations } from 'next-intl/server';
import { localePath, type Locale } from '@/i18n/routing';
import { Link } from '@/components/ui/link';

/** Shown when a page calls notFound() (docs/rules.md#routes: 'This page could not be found'). */
export default async function LocaleNotFound() {
  const t = await getTranslations('NotFound');
  const locale = (await getLocale()) as Locale;
  return (
    <div className="flex flex-col items-center gap-6 py-16 text-center">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <Link href={localePath(locale, '/')} className="rounded-lg bg-brand px-6 py-3 font-semibold text-white">
        {t('back')}
      </Link>
    </div>
  );
}
