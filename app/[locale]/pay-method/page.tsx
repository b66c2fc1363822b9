import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/pay-method` (docs/rules.md#routes): card and wallet. Static per locale; text in messages `Legal.payMethod`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="payMethod" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'payMethod');
  return pageMetadata(locale, '/pay-method/', title, description);
}
