import { setRequestLocale } from 'next-intl/server';
import { LegalPage, legalMetadata } from '@/components/site/legal-page';
import type { Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';

/** `/privacy-policy` (docs/rules.md#routes): what is collected, why, for how long, and rights. Static per locale; text in messages `Legal.privacyPolicy`. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LegalPage page="privacyPolicy" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const { title, description } = await legalMetadata(locale, 'privacyPolicy');
  return pageMetadata(locale, '/privacy-policy/', title, description);
}
