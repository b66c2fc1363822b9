import { getLocale, getTranslations } from 'next-intl/server';
import { localePath, localePrefixOf, type Locale } from '@/i18n/routing';
import { CookieBanner } from './cookie-banner';
import { FooterContent } from '../ui/footer-content';

/**
 * Site footer (docs/rules.md#routes): the legal and help pages, unsubscribe (→ `/cancel`), refund (→ the terms' refund section),
 * the consent promise and the copyright 2021–current year (server components, FooterContent);
 * and the cookie banner.
 */
export async function SiteFooter({ company }: { company: string }) {
  const t = await getTranslations();
  const footer = await getTranslations('Footer');
  const locale = (await getLocale()) as Locale;
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <FooterContent t={footer} prefix={localePrefixOf(locale)} company={company} />
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
