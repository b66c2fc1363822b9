import { getLocale, getTranslations } from 'next-intl/server';
import { localePrefixOf, type Locale } from '@/i18n/routing';
import { LanguageSwitcher } from './language-switcher';
import { HeaderLinks, HeaderMenu } from './header-links';
import { AccountMenu } from '../ui/account-menu';
import { Link } from '@/components/ui/link';

/** Names of the languages, each in its own language. */
const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  id: 'Bahasa Indonesia',
  es: 'Español',
  'en-PH': 'English (Philippines)',
};

/**
 * Site header (docs/rules.md#routes): product name (home link); price, advantages, how to track, demo, features, FAQ and contact
 * (links to the home page's sections, which scroll smoothly; a disclosure menu on small screens); the free tools
 * (username lookup, phone number lookup, IP tracker: their own disclosure on a desktop, in the menu on a phone); the language
 * switcher; the account area (sign in, or a menu with locations, billing, account and sign out). Every control is at
 * least 44 px tall and the row fits 360 px in every language. The links and menus are server components
 * (header-links.tsx, their links the site's `Link`); the language switcher and account area are islands.
 */
export async function SiteHeader({ product }: { product: string }) {
  const t = await getTranslations();
  const nav = await getTranslations('Nav');
  const locale = (await getLocale()) as Locale;
  const prefix = localePrefixOf(locale);
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
      <Link href="#main" className="sr-only focus:not-sr-only">
        {t('Nav.skip')}
      </Link>
      <nav className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-1">
        <HeaderLinks t={nav} prefix={prefix} product={product} />
        <div className="flex items-center gap-1 sm:gap-3">
          <HeaderMenu t={nav} prefix={prefix} />
          <LanguageSwitcher current={locale} label={t('Nav.languages')} names={LANGUAGE_NAMES} />
          <AccountMenu
            locale={locale}
            labels={{
              signIn: t('Auth.signIn'),
              menu: t('Nav.accountMenu'),
              account: t('Auth.account'),
              dashboard: t('Nav.dashboard'),
              billing: t('Nav.billing'),
              signOut: t('Auth.signOut'),
              network: t('Api.network'),
            }}
          />
        </div>
      </nav>
    </header>
  );
}
