import { getLocale, getTranslations } from 'next-intl/server';
import { localePath, type Locale } from '@/i18n/routing';
import { CookieBanner } from './cookie-banner';
import { StaticSection } from './static-section';

/**
 * Site footer (docs/rules.md#routes): the legal and help pages, unsubscribe (→ `/cancel`), refund (→ the terms' refund section),
 * the consent promise and the copyright 2021–current year (static sections: sent once, never hydrated);
 * and the cookie banner.
 */
export async function SiteFooter({ company }: { company: string }) {
  const t = await getTranslations();
  const locale = (await getLocale()) as Locale;
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <StaticSection name="footer" locale={locale} args={{ company }} />
      <CookieBanner
        policyHref={localePath(locale, '/cookie/')}
        labels={{
          text: t('Cookies.text'),
          accept: t('Cookies.accept'),
          decline: t('Cookies.decline'),
          more: t('Cookies.more'),
          label: t('Cookies.label'),
        }}
      />
    </footer>
  );
}
