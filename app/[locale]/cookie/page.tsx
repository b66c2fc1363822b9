import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/cookie` (docs/rules.md#routes): the cookies used and the choice. Static per locale; text in messages `Legal.cookie`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="cookie" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'cookie');
  return pageMetadata(locale, '/cookie/', title, description);
}
