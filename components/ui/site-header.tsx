import { getLocale, getTranslations } from 'next-intl/server';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';

/** Site header: product name (home link) and the subscriber's locations. Server component, no client JS. */
export async function SiteHeader({ product }: { product: string }) {
  const t = await getTranslations('Nav');
  const prefix = prefixOf((await getLocale()) as AppLocale);
  return (
    <header className="border-b border-slate-200 bg-white">
      <a href="#main" className="sr-only focus:not-sr-only">
        {t('skip')}
      </a>
      <nav className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
        <a href={`${prefix}/`} className="text-lg font-bold text-brand">
          {product}
        </a>
        <a href={`${prefix}/dashboard/locations/`} className="text-sm font-medium text-slate-700 hover:text-brand">
          {t('dashboard')}
        </a>
      </nav>
    </header>
  );
}
