import type { Translator } from '@/i18n/messages';
import { Link } from './link';

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
  // The withdrawal function, separate from cancelling (Directive 2011/83/EU Art. 11a).
  ['/withdraw/', 'withdraw'],
  ['/terms-of-use/#refund', 'refund'],
  // The phone owner's safety centre: every request made to their number (app/[locale]/safety/).
  ['/safety/', 'safety'],
] as const;

/**
 * The footer's links and lines (a server component, in SiteFooter): `t` of `Footer`, `prefix`
 * the locale's path prefix, `company` the legal name in the copyright line.
 */
export function FooterContent({ t, prefix, company }: { t: Translator<'Footer'>; prefix: string; company: string }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 text-sm text-slate-600">
      <nav aria-label={t('legal')}>
        <ul className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-3 lg:grid-cols-5">
          {LINKS.map(([path, key]) => (
            <li key={key}>
              <Link href={`${prefix}${path}`} className="footer-link">
                {t(key)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-6">{t('consentNote')}</p>
      <p className="mt-2">{t('rights', { year: new Date().getFullYear(), company })}</p>
    </div>
  );
}
