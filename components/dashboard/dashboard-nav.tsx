'use client';
import { usePathname } from 'next/navigation';
import { localePath } from '@/i18n/routing';
import { Link } from '@/components/ui/link';

/**
 * The signed-in navigation shown on every dashboard page: My locations, Billing (orders, subscription, cancel,
 * refund), Data leaks where configured, and My account, as tabs that fit a 360 px phone in every language: each at
 * least 44 px tall (WCAG 2.5.8), labels never cut — a tab that does not fit on the row goes to the next one rather
 * than being hidden behind a sideways scroll with nothing to show it is there. The current page is marked
 * `aria-current="page"`.
 */
export function DashboardNav({
  locale,
  label,
  items,
}: {
  /** The page's locale: the dashboard layout renders this outside the pages' message provider. */
  locale: string;
  /** The navigation's accessible name. */
  label: string;
  /** [path without locale prefix, label] in order; links go to it under the page's locale (i18n/routing.ts). */
  items: [string, string][];
}) {
  const path = usePathname();
  return (
    <nav aria-label={label} className="mb-6 border-b border-slate-200" data-testid="dashboard-nav">
      <ul className="flex flex-wrap gap-x-1">
        {items.map(([href, text]) => {
          const current = path.replace(/\/?$/, '/').endsWith(href);
          return (
            <li key={href}>
              <Link
                href={localePath(locale, href)}
                aria-current={current ? 'page' : undefined}
                className="inline-flex min-h-11 items-center border-b-2 border-transparent px-2.5 text-sm font-medium whitespace-nowrap text-slate-700 hover:text-brand aria-[current=page]:border-brand aria-[current=page]:text-brand"
              >
                {text}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
