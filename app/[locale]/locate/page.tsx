import { setRequestLocale } from 'next-intl/server';
import { LocateLanding, landingMetadata } from '@/components/landing/locate-landing';
import type { Locale } from '@/i18n/routing';

/** `/locate` (docs/rules.md#routes): locate one's own phone — the link goes to the lost phone or whoever holds it. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LocateLanding page="Landing.locate" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  return landingMetadata((await params).locale, 'Landing.locate', '/locate/');
}
