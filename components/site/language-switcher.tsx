'use client';
import { useSyncExternalStore } from 'react';
import { localePath, localePrefixOf, routing } from '@/i18n/routing';
import { splitLocale, type AppLocale } from '@/lib/routing/rules';
import { Link, useRenderAfterNavigation } from '@/components/ui/link';
import { writePreferenceCookie } from '@/lib/browser-cookies';
import { HEADER_MENU_GROUP } from '@/components/ui/header-menu-group';

/**
 * Remembers a language the visitor chose in the `lang` cookie (docs/rules.md#entities), one year, so `/` sends them to
 * it next time (proxy.ts). Only an explicit choice sets it.
 */
function rememberLanguage(locale: AppLocale): void {
  writePreferenceCookie('lang', locale);
}
const noSubscribe = () => () => {};
/** What the closed switcher shows: a short code (the full names are in the list): the prefix, or `EN`, upper-cased. */
const short = (locale: AppLocale) => (localePrefixOf(locale).slice(1) || locale).toUpperCase();

/**
 * The language switcher: a native disclosure listing the locales of i18n/routing.ts. Each link keeps the current
 * path and query under the other language's prefix (`/es/faq/?utm_source=x` → `/id/faq/?utm_source=x`); before
 * hydration the links lead to each language's home page. Names come translated from the server component. One of the
 * header's exclusive group of menus (HEADER_MENU_GROUP).
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
  // In the layout, it outlives client-side navigations: rendered again after each, with the new address.
  useRenderAfterNavigation();
  const suffix = useSyncExternalStore(
    noSubscribe,
    () => `${splitLocale(location.pathname).rest || '/'}${location.search}`,
    () => '/',
  );
  return (
    <details name={HEADER_MENU_GROUP} className="sm:relative" data-testid="language-menu">
      <summary className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center gap-1 rounded-lg px-2 text-sm font-medium text-slate-700 hover:text-brand">
        <span className="sr-only">{label}: </span>
        <abbr title={names[current]} className="no-underline">
          {short(current)}
        </abbr>{' '}
        <span aria-hidden>▾</span>
      </summary>
      <ul className="menu-panel sm:w-52">
        {routing.locales.map((l) => (
          <li key={l}>
            <Link
              href={localePath(l, suffix)}
              hrefLang={l}
              lang={l}
              aria-current={l === current ? 'true' : undefined}
              onClick={() => rememberLanguage(l)}
              className="menu-item"
            >
              {names[l]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
