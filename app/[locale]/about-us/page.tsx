import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/about-us` (docs/rules.md#routes): who runs the service. Static per locale; text in messages `Legal.aboutUs`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="aboutUs" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'aboutUs');
  return pageMetadata(locale, '/about-us/', title, description);
}
