'use client';
import { useSyncExternalStore } from 'react';
import { prefixOf, splitLocale, type AppLocale } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';

const LOCALES: AppLocale[] = ['en', 'id', 'es', 'en-PH'];
const noSubscribe = () => () => {};
/** What the closed switcher shows: a short code (the full names are in the list). */
const SHORT: Record<AppLocale, string> = { en: 'EN', id: 'ID', es: 'ES', 'en-PH': 'PH' };

/**
 * The language switcher (issue 6 item 1): a native disclosure listing en, id, es and en-PH. Each link keeps the current
 * path and query under the other language's prefix (`/es/faq/?utm_source=x` → `/id/faq/?utm_source=x`); before
 * hydration the links lead to each language's home page. Names come translated from the server component.
 */
export function LanguageSwitcher({
  current,
  label,
  names,
}: {
  current: AppLocale;
  label: string;
  names: Record<AppLocale, string>;
}) {
  const suffix = useSyncExternalStore(
    noSubscribe,
    () => `${splitLocale(location.pathname).rest || '/'}${location.search}`,
    () => '/',
  );
  return (
    <details className="relative">
      <summary className="cursor-pointer list-none rounded-lg px-2 py-1 text-sm font-medium text-slate-700 hover:text-brand">
        <span className="sr-only">{label}: </span>
        <abbr title={names[current]} className="no-underline">
          {SHORT[current]}
        </abbr>{' '}
        <span aria-hidden>▾</span>
      </summary>
      <ul className="absolute right-0 z-20 mt-2 w-52 rounded-xl bg-white p-2 shadow-lg ring-1 ring-slate-200">
        {LOCALES.map((l) => (
          <li key={l}>
            <Link
              href={`${prefixOf(l)}${suffix}`}
              hrefLang={l}
              lang={l}
              aria-current={l === current ? 'true' : undefined}
              className="block rounded-lg px-3 py-2 text-sm text-slate-800 hover:bg-slate-100 aria-[current]:font-semibold"
            >
              {names[l]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
