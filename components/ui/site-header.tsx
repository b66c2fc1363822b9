import { getLocale, getTranslations } from 'next-intl/server';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { AccountMenu } from './account-menu';

/** Site header: product name (home link) and the account area (sign in, or locations, account and sign out). */
export async function SiteHeader({ product }: { product: string }) {
  const t = await getTranslations();
  const locale = await getLocale();
  const prefix = prefixOf(locale as AppLocale);
  return (
    <header className="border-b border-slate-200 bg-white">
      <a href="#main" className="sr-only focus:not-sr-only">
        {t('Nav.skip')}
      </a>
      <nav className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
        <a href={`${prefix}/`} className="text-lg font-bold text-brand">
          {product}
        </a>
        <AccountMenu
          prefix={prefix}
          locale={locale}
          labels={{
            signIn: t('Auth.signIn'),
            account: t('Auth.account'),
            dashboard: t('Nav.dashboard'),
            signOut: t('Auth.signOut'),
            network: t('Api.network'),
          }}
        />
      </nav>
    </header>
  );
}
