'use client';
import { useEffect, useRef, type MouseEvent } from 'react';
import { renderStaticSection, type StaticSectionName, type StaticSections } from '#static-sections';
import type { Locale } from '@/i18n/routing';
import { linkKind, withTrackedParams } from '@/lib/routing/links';
import { scrollToFragment } from '../ui/link';

/** The HTML of each static section as the server sent it, read from the page once (by section name). */
const sent = new Map<string, string>();

/**
 * The HTML the server rendered into static section `name` of this page ('' when the page has none), for islands that
 * take over a section (the situations' swiper). Browser only.
 */
export function sentHtml(name: StaticSectionName): string {
  let html = sent.get(name);
  if (html === undefined) {
    html = document.querySelector(`[data-static-section="${name}"]`)?.innerHTML ?? '';
    sent.set(name, html);
  }
  return html;
}

/**
 * Static text sent once (the home page's HTML carried every section twice, as HTML and again in the RSC
 * payload that hydration reads). On the server, section `name` is rendered from `#static-sections` in `locale` with
 * `args` inside a `<div data-static-section>`; in the browser that module is a stub, the RSC payload holds only the
 * name and `args`, and this component keeps the HTML the server sent (React leaves an element's
 * `dangerouslySetInnerHTML` as it is while hydrating, and never rewrites it while the string stays the same).
 *
 * Links inside behave like the site's `Link` without hydrating it: once the page is interactive, internal links gain
 * the tracked parameters of the current address (gclid, utm_term, …), and a link to a fragment of this page scrolls
 * there (components/ui/link.tsx). Pages are reached by full page loads (the site's links are plain anchors), so the
 * section's HTML is always on the page when this component first renders in the browser.
 */
export function StaticSection<N extends StaticSectionName>({
  name,
  locale,
  args,
  className,
}: {
  name: N;
  locale: Locale;
  args: StaticSections[N];
  /** The wrapper's class (`contents` lets the section's elements take part in the parent's flex or grid). */
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const a of ref.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []) {
      const href = a.getAttribute('href')!;
      if (linkKind(href, location.pathname) === 'internal')
        a.setAttribute('href', withTrackedParams(href, location.search));
    }
  }, []);
  const rendered = renderStaticSection(name, locale, args);
  if (rendered !== null)
    return (
      <div data-static-section={name} className={className}>
        {rendered}
      </div>
    );

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const a = (event.target as Element).closest('a[href]');
    if (!a || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const href = a.getAttribute('href')!;
    if (linkKind(href, location.pathname) === 'hash' && scrollToFragment(href)) event.preventDefault();
  };
  return (
    // Delegated: a link's click comes from the keyboard (Enter) too.
    <div
      ref={ref}
      data-static-section={name}
      className={className}
      onClick={onClick}
      dangerouslySetInnerHTML={{ __html: sentHtml(name) }}
      suppressHydrationWarning
    />
  );
}
