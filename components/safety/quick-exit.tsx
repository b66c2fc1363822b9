'use client';
import { QUICK_EXIT_URL } from '@/lib/safety';
import { Link } from '../ui/link';

/**
 * Quick exit (Apple's Safety Check "Quick Exit"; UK Home Office guidance on quick-exit buttons for survivor-facing
 * sites): one tap ends the safety-centre session (`DELETE /api_f/v1/safety/session`, sent with `keepalive` so it
 * outlives the page) and replaces this page in the history with a neutral one (`location.replace`), so Back does not
 * return to it. Without JavaScript it is a plain link to the same neutral page.
 */
export function QuickExit({ label, help }: { label: string; help: string }) {
  return (
    <Link
      href={QUICK_EXIT_URL}
      rel="noreferrer"
      title={help}
      data-testid="quick-exit"
      onClick={(event) => {
        event.preventDefault();
        void fetch('/api_f/v1/safety/session', {
          method: 'DELETE',
          keepalive: true,
          headers: { website_type: '7' },
        }).catch(() => undefined);
        window.location.replace(QUICK_EXIT_URL);
      }}
      className="inline-flex min-h-11 items-center rounded-xl bg-slate-900 px-4 py-2 font-semibold text-white"
    >
      {label}
    </Link>
  );
}
