import { getLocale, getTranslations } from 'next-intl/server';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { LanguageSwitcher } from '../site/language-switcher';
import { LogoMark } from '../site/brand';
import { AccountMenu } from './account-menu';
import { Link } from '@/components/ui/link';

/** The home page's sections the header links to (SPEC §2 header), in order. */
const ANCHORS = [
  ['price', 'price'],
  ['advantages', 'advantages'],
  ['how', 'howTo'],
  ['demo', 'demo'],
  ['features', 'features'],
  ['faq', 'faq'],
  ['contact', 'contact'],
] as const;

/** The free tools the header's "Free tools" menu links to (issue 15 §2), in order: [path, label key]. */
const TOOLS = [
  ['/username-lookup/', 'toolUsername'],
  ['/phone-finder/', 'toolPhone'],
  ['/ip-tracker/', 'toolIp'],
] as const;

/** Names of the languages, each in its own language. */
const LANGUAGE_NAMES = { en: 'English', id: 'Bahasa Indonesia', es: 'Español', 'en-PH': 'English (Philippines)' };

/**
 * Site header (SPEC §2): product name (home link); price, advantages, how to track, demo, features, FAQ and contact
 * (links to the home page's sections, which scroll smoothly; a disclosure menu on small screens); the free tools
 * (username lookup, phone number lookup, IP tracker: their own disclosure on a desktop, in the menu on a phone); the language
 * switcher; the account area (sign in, or a menu with locations, billing, account and sign out). Every control is at
 * least 44 px tall and the row fits 360 px in every language (issue 13 §11).
 */
export async function SiteHeader({ product }: { product: string }) {
  const t = await getTranslations();
  const locale = (await getLocale()) as AppLocale;
  const prefix = prefixOf(locale);
  const links = ANCHORS.map(([id, key]) => (
    <li key={id}>
      <Link href={`${prefix}/#${id}`} className="nav-link">
        {t(`Nav.${key}`)}
      </Link>
    </li>
  ));
  const tools = TOOLS.map(([path, key]) => (
    <li key={path}>
      <Link href={`${prefix}${path}`} className="tool-link">
        {t(`Nav.${key}`)}
      </Link>
    </li>
  ));
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
      <Link href="#main" className="sr-only focus:not-sr-only">
        {t('Nav.skip')}
      </Link>
      <nav className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-4 py-1">
        <Link href={`${prefix}/`} className="inline-flex min-h-11 items-center gap-2 text-lg font-bold text-brand">
          <LogoMark />
          {product}
        </Link>
        <ul className="hidden items-center gap-5 lg:flex">{links}</ul>
        <details className="relative hidden lg:block" data-testid="header-tools">
          <summary className="nav-link cursor-pointer list-none">{t('Nav.tools')} ▾</summary>
          <ul className="absolute right-0 z-20 mt-2 w-56 rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-200">
            {tools}
          </ul>
        </details>
        <div className="flex items-center gap-1 sm:gap-3">
          <details className="relative lg:hidden">
            <summary className="flex min-h-11 cursor-pointer list-none items-center rounded-lg px-2 text-sm font-medium text-slate-700">
              {t('Nav.menu')} ▾
            </summary>
            <ul className="absolute right-0 z-20 mt-2 w-56 rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-200">
              {links}
              <li aria-hidden className="my-1 border-t border-slate-200" />
              {tools}
            </ul>
          </details>
          <LanguageSwitcher current={locale} label={t('Nav.languages')} names={LANGUAGE_NAMES} />
          <AccountMenu
            prefix={prefix}
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
