import { getTranslations, setRequestLocale } from 'next-intl/server';
import { landingMetadata } from '@/components/landing/locate-landing';
import { IpLookup } from '@/components/site/ip-lookup';
import { ToolPage } from '@/components/site/tool-page';
import type { Locale } from '@/i18n/routing';

/** `/ip-tracker` (docs/rules.md#routes): a working IP lookup (own address first) on a small map; an IP shows an area only. */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('Landing.ipTracker');
  return (
    <ToolPage page="Landing.ipTracker" footnote={t('credit')}>
      <IpLookup />
    </ToolPage>
  );
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  return landingMetadata((await params).locale, 'Landing.ipTracker', '/ip-tracker/');
}
