import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/terms-of-use` (SPEC §2): 18+ only, allowed use, subscription, cancellation, refunds (#refund), complaints. Static per locale; text in messages `Legal.termsOfUse`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="termsOfUse" anchors={{ 5: 'refund' }} />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'termsOfUse');
  return pageMetadata(locale, '/terms-of-use/', title, description);
}
