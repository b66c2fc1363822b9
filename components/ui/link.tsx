'use client';
import NextLink from 'next/link';
import { usePathname } from 'next/navigation';
import {
  useEffect,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { linkKind, withTrackedParams } from '@/lib/routing/links';

const noSubscribe = () => () => {};

/**
 * Renders the calling component again once a client-side navigation has changed the address, for components that
 * outlive it (the layout's header and footer links, the language switcher) and read `location` in a
 * `useSyncExternalStore` snapshot, which is taken on every render. Not on the first render: the snapshots are fresh
 * then. (The new address is in `location` by the time effects run, not yet while the new page renders.)
 */
export function useRenderAfterNavigation(): void {
  const pathname = usePathname();
  const seen = useRef(pathname);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (seen.current === pathname) return;
    seen.current = pathname;
    bump();
  }, [pathname]);
}

/**
 * The site's one link (docs/rules.md#routes). `href` is a path under the page's locale prefix, a `#id`, or an
 * external URL.
 * - `disabled`: rendered without `href`, `aria-disabled`, and a click does nothing.
 * - External http(s)/ftp/mailto (docs/rules.md#validation check): opens directly; with `target` in that window, `rel=noopener`.
 * - `#id` or this page's path with `#id`: scrolls smoothly to the element (instantly under reduced motion), moves
 *   focus there and records the fragment in history.
 * - Anything else navigates inside the site by client-side navigation (`next/link`; a page in another locale, which
 *   has its own root layout, is loaded in full by Next), carrying the tracked parameters of the current address
 *   (gclid, utm_term, …): the `href` gains them once the page is interactive, so a new tab or a copied link keeps
 *   them too. The server HTML has the plain `href` (canonical for crawlers). The target is prefetched once the
 *   visitor shows intent (pointer over it, touch or focus), not when the link scrolls into view: a phone on a slow
 *   network fetches only the pages it is about to open (Next's "Hover-triggered prefetch",
 *   https://nextjs.org/docs/app/guides/prefetching).
 */
export function Link({
  href,
  disabled = false,
  children,
  onClick,
  target,
  rel,
  ...rest
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; disabled?: boolean; children: ReactNode }) {
  useRenderAfterNavigation();
  const carried = useSyncExternalStore(
    noSubscribe,
    () =>
      linkKind(href, location.pathname, disabled) === 'internal' ? withTrackedParams(href, location.search) : href,
    () => href,
  );
  const kind = useSyncExternalStore(
    noSubscribe,
    () => linkKind(href, location.pathname, disabled),
    () => linkKind(href, '', disabled),
  );
  const [intent, setIntent] = useState(false);

  if (kind === 'disabled') {
    return (
      <a {...rest} aria-disabled="true" role="link" onClick={(e) => e.preventDefault()}>
        {children}
      </a>
    );
  }

  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || kind !== 'hash') return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (scrollToFragment(href)) event.preventDefault();
  };

  // A path with a fragment of this very page is a NextLink too (handleClick scrolls), as it is on the server, where
  // the current path is unknown: hydration finds the same element.
  if (kind === 'internal' || (kind === 'hash' && !href.startsWith('#')))
    return (
      <NextLink
        {...rest}
        href={carried}
        target={target}
        rel={rel}
        prefetch={intent && kind === 'internal' ? null : false}
        onMouseEnter={(event) => {
          rest.onMouseEnter?.(event);
          setIntent(true);
        }}
        onTouchStart={(event) => {
          rest.onTouchStart?.(event);
          setIntent(true);
        }}
        onFocus={(event) => {
          rest.onFocus?.(event);
          setIntent(true);
        }}
        onClick={handleClick}
      >
        {children}
      </NextLink>
    );

  const external = kind === 'external';
  return (
    <a
      {...rest}
      href={carried}
      target={target}
      rel={external && target ? (rel ?? 'noopener noreferrer') : rel}
      onClick={handleClick}
    >
      {children}
    </a>
  );
}

/**
 * Follows the fragment of `href` (`#id` or a path of this page with `#id`) in place: scrolls smoothly to the element
 * (instantly under reduced motion), moves focus there and records the fragment in history. Returns false, doing
 * nothing, when no element has that id (the browser's own jump then applies).
 */
export function scrollToFragment(href: string): boolean {
  const id = decodeURIComponent(href.slice(href.indexOf('#') + 1));
  const element = id ? document.getElementById(id) : document.body;
  if (!element) return false;
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  if (!element.hasAttribute('tabindex') && !/^(A|BUTTON|INPUT|SELECT|TEXTAREA)$/.test(element.tagName)) {
    element.setAttribute('tabindex', '-1');
  }
  element.focus({ preventScroll: true });
  history.pushState(history.state, '', `${location.pathname}${location.search}#${id}`);
  return true;
}
