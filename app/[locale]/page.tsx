import { getTranslations, setRequestLocale } from 'next-intl/server';
import { LocateBox } from '@/components/locate/locate-box';
import { ClientMessages } from '@/components/ui/client-messages';
import type { Locale } from '@/i18n/routing';

/** Home page (SPEC §2): the promise of consent-based locating and the locate box. */
export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('Home');
  return (
    <div className="grid gap-8 lg:grid-cols-2 lg:items-start">
      <section>
        <h1 className="text-3xl font-bold leading-tight text-slate-900 sm:text-4xl">{t('heading')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('lead')}</p>
        <ul className="mt-6 space-y-3 text-slate-700">
          {(['consentPoint1', 'consentPoint2', 'consentPoint3'] as const).map((key) => (
            <li key={key} className="flex gap-2">
              <span aria-hidden className="text-brand">
                ✓
              </span>
              {t(key)}
            </li>
          ))}
        </ul>
      </section>
      <ClientMessages namespaces={['LocateBox', 'PhoneFacts']}>
        <LocateBox />
      </ClientMessages>
    </div>
  );
}
