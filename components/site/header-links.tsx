import type { ReactNode } from 'react';
import type { Translator } from '@/i18n/messages';
import { LogoMark } from './brand';
import { Link } from '../ui/link';
import { HEADER_MENU_GROUP } from '../ui/header-menu-group';

/** The home page's sections the header links to (docs/rules.md#routes header), in order. */
const ANCHORS = [
  ['price', 'price'],
  ['advantages', 'advantages'],
  ['how', 'howTo'],
  ['demo', 'demo'],
  ['features', 'features'],
  ['faq', 'faq'],
  ['contact', 'contact'],
] as const;

/** The free tools the header's "Free tools" menu links to, in order: [path, label key]. */
const TOOLS = [
  ['/username-lookup/', 'toolUsername'],
  ['/phone-finder/', 'toolPhone'],
  ['/ip-tracker/', 'toolIp'],
] as const;

/** The section links of the header's row and its menu: `t` of `Nav`, `prefix` the locale's path prefix. */
function sectionLinks(t: Translator<'Nav'>, prefix: string) {
  return ANCHORS.map(([id, key]) => (
    <li key={id}>
      <Link href={`${prefix}/#${id}`} className="nav-link">
        {t(key)}
      </Link>
    </li>
  ));
}

/** The free tools' links of the header's dropdown and its menu. */
function toolLinks(t: Translator<'Nav'>, prefix: string) {
  return TOOLS.map(([path, key]) => (
    <li key={path}>
      <Link href={`${prefix}${path}`} className="tool-link">
        {t(key)}
      </Link>
    </li>
  ));
}

/**
 * A disclosure of the header's exclusive group (HEADER_MENU_GROUP: opening one closes the others): a `details` whose
 * summary is `label` with a down arrow, then `children`, its panel. `className` styles the `details`,
 * `summaryClassName` its summary; `testId` is its `data-testid`.
 */
function HeaderDisclosure({
  label,
  className,
  summaryClassName,
  testId,
  children,
}: {
  label: string;
  className: string;
  summaryClassName: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <details name={HEADER_MENU_GROUP} className={className} data-testid={testId}>
      <summary className={summaryClassName}>
        {label}
        <span aria-hidden="true" className="ml-1">
          ▾
        </span>
      </summary>
      {children}
    </details>
  );
}

/**
 * The start of the header's row (a server component): the product's home link,
 * the section links (a desktop) and the free tools' dropdown (a desktop). `product`: the product's name.
 */
export function HeaderLinks({ t, prefix, product }: { t: Translator<'Nav'>; prefix: string; product: string }) {
  return (
    <>
      <Link href={`${prefix}/`} className="inline-flex min-h-11 items-center gap-2 text-lg font-bold text-brand">
        <LogoMark />
        {product}
      </Link>
      <ul className="hidden items-center gap-5 lg:flex">{sectionLinks(t, prefix)}</ul>
      <HeaderDisclosure
        label={t('tools')}
        className="relative hidden lg:block"
        summaryClassName="nav-link cursor-pointer list-none"
        testId="header-tools"
      >
        <ul className="menu-panel w-56">{toolLinks(t, prefix)}</ul>
      </HeaderDisclosure>
    </>
  );
}

/**
 * The header's disclosure menu on small screens (a server component): the section links, then the free tools. One of
 * the header's exclusive group (HEADER_MENU_GROUP): opening it closes the languages or the account menu.
 */
export function HeaderMenu({ t, prefix }: { t: Translator<'Nav'>; prefix: string }) {
  return (
    <HeaderDisclosure
      label={t('menu')}
      className="sm:relative lg:hidden"
      summaryClassName="flex min-h-11 cursor-pointer list-none items-center rounded-lg px-2 text-sm font-medium text-slate-700"
      testId="header-menu"
    >
      <ul className="menu-panel sm:w-56">
        {sectionLinks(t, prefix)}
        <li aria-hidden className="my-1 border-t border-slate-200" />
        {toolLinks(t, prefix)}
      </ul>
    </HeaderDisclosure>
  );
}
