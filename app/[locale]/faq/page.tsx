import { getTranslations, setRequestLocale } from 'next-intl/server';
import { FaqList } from '@/components/site/faq-list';
import { legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/faq` (docs/rules.md#routes): the frequently asked questions, with the FAQPage JSON-LD. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('Legal.faq');
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-3 mb-8 text-lg text-slate-700">{t('description')}</p>
      <FaqList jsonLd />
    </article>
  );
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'faq');
  return pageMetadata(locale, '/faq/', title, description);
}
