'use client';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';

/**
 * The owner's pages, the consent page `/location/` and the safety centre `/safety/`, under any language prefix: the
 * browser's path (`/location/`, `/es/location/`, `/ph/safety/`) or the internal one a prerender sees
 * (`/en/location`, `/en-PH/safety`).
 */
const OWNER_PAGE = /^(?:\/(?:en|en-PH|es|id|ph))?\/(?:location|safety)\/?$/;

/** Whether `pathname` is the owner's consent page (see OWNER_PAGE). */
export function isOwnerPage(pathname: string | null): boolean {
  return OWNER_PAGE.test(pathname ?? '');
}

/**
 * The locale layout's switch between the site's frame and the owner's (components/share/owner-shell.tsx): renders
 * `owner` on the consent page and `site` everywhere else, from the path (`usePathname`, the same in the prerender and
 * in the browser, so hydration agrees). Both are server-rendered trees passed in; the one not shown is never mounted,
 * so the consent page runs no cookie banner, account menu or page tracking. A client switch in the layout rather than
 * a parallel route (`@header`/`@footer` slots): slots split the layout's client code into chunks the home page then
 * loads twice over its first-load budget (scripts/check-budgets.mjs).
 */
export function OwnerPageSwitch({ site, owner }: { site: ReactNode; owner: ReactNode }) {
  return <>{isOwnerPage(usePathname()) ? owner : site}</>;
}
