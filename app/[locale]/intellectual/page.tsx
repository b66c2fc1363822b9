import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/intellectual` (docs/rules.md#routes): ownership of the site and third-party credits. Static per locale; text in messages `Legal.intellectual`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="intellectual" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'intellectual');
  return pageMetadata(locale, '/intellectual/', title, description);
}
