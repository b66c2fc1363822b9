import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/**
 * `/terms-of-use` (docs/rules.md#routes): 18+ only, allowed use, subscription, cancellation, refunds (#refund), the right of
 * withdrawal and where its function is (#withdrawal; Directive 2011/83/EU Art. 11a), complaints. Static per locale;
 * text in messages `Legal.termsOfUse`.
 */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="termsOfUse" anchors={{ 5: 'refund', 6: 'withdrawal' }} />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'termsOfUse');
  return pageMetadata(locale, '/terms-of-use/', title, description);
}
