import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Suspense } from 'react';
import { landingMetadata } from '@/components/landing/locate-landing';
import { UsernameLookup } from '@/components/site/username-lookup';
import { ClientMessages } from '@/components/ui/client-messages';
import { Link } from '@/components/ui/link';
import type { Locale } from '@/i18n/routing';
import { sitesToCheck } from '@/server/services/lookups';

/**
 * `/username-lookup`: on which public sites a profile with a username exists, checked against the
 * WhatsMyName site list (its size read from the list at build time) with its attribution and licence; the tool is
 * the `UsernameLookup` island.
 */
export default async function Page({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('UsernameLookup');
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">{t('heading')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('lead', { count: sitesToCheck(false).length })}</p>
      <p className="mt-4 rounded-xl bg-amber-50 p-4 text-amber-900" data-testid="tool-note">
        {t('note')}
      </p>
      <div className="mt-8">
        <ClientMessages namespaces={['UsernameLookup']}>
          <Suspense>
            <UsernameLookup />
          </Suspense>
        </ClientMessages>
      </div>
      <p className="mt-6 text-xs text-slate-600" data-testid="wmn-attribution">
        {t('attribution')}{' '}
        <Link href="https://github.com/WebBreacher/WhatsMyName" className="underline" target="_blank">
          WhatsMyName
        </Link>{' '}
        (Micah Hoffman {t('andContributors')}),{' '}
        <Link href="https://creativecommons.org/licenses/by-sa/4.0/" className="underline" target="_blank">
          CC BY-SA 4.0
        </Link>
        .
      </p>
    </section>
  );
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  return landingMetadata((await params).locale, 'UsernameLookup', '/username-lookup/');
}
