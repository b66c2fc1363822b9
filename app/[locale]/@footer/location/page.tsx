import { getTranslations, setRequestLocale } from 'next-intl/server';
import { OwnerFooter } from '@/components/share/owner-shell';
import { Tracker } from '@/components/site/tracker';
import type { Locale } from '@/i18n/routing';
import { site } from '@/lib/site';

/**
 * The `@footer` slot on the consent page `/location/`: the privacy policy and the operator (owner-shell.tsx), no
 * cookie banner, and the offline notice without page tracking (nothing optional runs, so nothing needs a choice).
 */
export default async function ConsentFooter({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  // Set here too: a slot renders apart from the layout (see ../@header/default.tsx).
  setRequestLocale(locale);
  const t = await getTranslations({ locale, namespace: 'Footer' });
  return (
    <>
      <OwnerFooter locale={locale} company={site.company} />
      <Tracker offline={t('offline')} track={false} />
    </>
  );
}
