'use client';
import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';

/**
 * The signed-in navigation shown on every dashboard page (issue 13 §1): My locations, Billing (orders, subscription,
 * cancel, refund) and My account, as tabs that fit a 360 px phone (each at least 44 px tall, the row scrolls
 * sideways rather than the page if a language's words run long). The current page is marked `aria-current="page"`.
 */
export function DashboardNav({
  prefix,
  label,
  items,
}: {
  prefix: string;
  /** The navigation's accessible name. */
  label: string;
  /** [path under the prefix, label] in order. */
  items: [string, string][];
}) {
  const path = usePathname();
  return (
    <nav aria-label={label} className="mb-6 overflow-x-auto border-b border-slate-200" data-testid="dashboard-nav">
      <ul className="flex min-w-max gap-1">
        {items.map(([href, text]) => {
          const current = path.replace(/\/?$/, '/').endsWith(href);
          return (
            <li key={href}>
              <Link
                href={`${prefix}${href}`}
                aria-current={current ? 'page' : undefined}
                className="inline-flex min-h-11 items-center border-b-2 border-transparent px-3 text-sm font-medium text-slate-700 hover:text-brand aria-[current=page]:border-brand aria-[current=page]:text-brand"
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
