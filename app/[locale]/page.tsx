import { setRequestLocale } from 'next-intl/server';
import { LocateLanding } from '@/components/landing/locate-landing';
import type { Locale } from '@/i18n/routing';

/** Home page (SPEC §2): the promise of consent-based locating and the locate box. */
export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LocateLanding page="Home" />;
}
