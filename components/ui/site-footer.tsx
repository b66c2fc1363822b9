import { getLocale, getTranslations } from 'next-intl/server';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { CookieBanner } from '../site/cookie-banner';
import { Link } from '@/components/ui/link';

const LINKS = [
  ['/about-us/', 'about'],
  ['/privacy-policy/', 'privacy'],
  ['/terms-of-use/', 'terms'],
  ['/pay-method/', 'payMethod'],
  ['/intellectual/', 'intellectual'],
  ['/contact-us/', 'contact'],
  ['/faq/', 'faq'],
  ['/cookie/', 'cookie'],
  ['/cancel/', 'unsubscribe'],
  ['/terms-of-use/#refund', 'refund'],
] as const;

/**
 * Site footer (SPEC §2): the legal and help pages, unsubscribe (→ `/cancel`), refund (→ the terms' refund section),
 * the consent promise and the copyright 2021–current year; and the cookie banner.
 */
export async function SiteFooter({ company }: { company: string }) {
  const t = await getTranslations();
  const prefix = prefixOf((await getLocale()) as AppLocale);
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto max-w-5xl px-4 py-8 text-sm text-slate-600">
        <nav aria-label={t('Footer.legal')}>
          <ul className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3 lg:grid-cols-5">
            {LINKS.map(([path, key]) => (
              <li key={key}>
                <Link href={`${prefix}${path}`} className="footer-link">
                  {t(`Footer.${key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="mt-6">{t('Footer.consentNote')}</p>
        <p className="mt-2">{t('Footer.rights', { year: new Date().getFullYear(), company })}</p>
      </div>
      <CookieBanner
        policyHref={`${prefix}/cookie/`}
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
