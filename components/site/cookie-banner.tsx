'use client';
import { useState, useSyncExternalStore } from 'react';
import { COOKIE_CHOICE_EVENT, readCookieChoice } from '@/lib/tracking/cookie-choice';
import { Link } from '@/components/ui/link';

const noSubscribe = () => () => {};

/**
 * The cookie banner (issue 6 item 3): shown until the visitor chooses; Accept sets `acceptCookie=1`, Decline `0`, for a
 * year (path /, SameSite=Lax), and announces it with the `cookiechoice` window event (ad events waiting for the answer
 * are then sent or dropped). Essential cookies (session, language) need no consent. Nothing optional is set before.
 */
export function CookieBanner({
  labels,
  policyHref,
}: {
  labels: { text: string; accept: string; decline: string; more: string; label: string };
  policyHref: string;
}) {
  const stored = useSyncExternalStore(noSubscribe, readCookieChoice, () => '1' as const);
  const [chosen, setChosen] = useState(false);
  if (stored !== null || chosen) return null;
  const choose = (value: '1' | '0') => {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `acceptCookie=${value}; Max-Age=31536000; Path=/; SameSite=Lax${secure}`;
    setChosen(true);
    dispatchEvent(new Event(COOKIE_CHOICE_EVENT));
  };
  return (
    <section
      aria-label={labels.label}
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 p-4 shadow-lg backdrop-blur"
      data-testid="cookie-banner"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">
          {labels.text}{' '}
          <Link href={policyHref} className="text-brand underline">
            {labels.more}
          </Link>
        </p>
        <div className="flex shrink-0 gap-3">
          <button
            type="button"
            onClick={() => choose('0')}
            className="min-h-11 rounded-lg border border-slate-300 px-4 text-sm"
          >
            {labels.decline}
          </button>
          <button
            type="button"
            onClick={() => choose('1')}
            className="min-h-11 rounded-lg bg-brand px-4 text-sm font-semibold text-white"
          >
            {labels.accept}
          </button>
        </div>
      </div>
    </section>
  );
}
