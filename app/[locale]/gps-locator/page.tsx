import { setRequestLocale } from 'next-intl/server';
import { LocateLanding, landingMetadata } from '@/components/landing/locate-landing';
import type { Locale } from '@/i18n/routing';

/** `/gps-locator` (docs/rules.md#routes): a landing page for locating a phone's GPS position with its owner's consent. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return <LocateLanding page="Landing.gpsLocator" />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  return landingMetadata((await params).locale, 'Landing.gpsLocator', '/gps-locator/');
}
