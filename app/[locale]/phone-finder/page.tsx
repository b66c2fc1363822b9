import { setRequestLocale } from 'next-intl/server';
import { landingMetadata } from '@/components/landing/locate-landing';
import { PhoneLookup } from '@/components/site/phone-lookup';
import { ToolPage } from '@/components/site/tool-page';
import type { Locale } from '@/i18n/routing';

/** `/phone-finder` (docs/rules.md#the-product, #routes): the free reverse phone lookup; it says plainly that it does not locate the phone. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  return (
    <ToolPage page="Landing.phoneFinder">
      <PhoneLookup />
    </ToolPage>
  );
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  return landingMetadata((await params).locale, 'Landing.phoneFinder', '/phone-finder/');
}
