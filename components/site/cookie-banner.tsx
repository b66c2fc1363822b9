'use client';
import { useState, useSyncExternalStore } from 'react';
import { COOKIE_CHOICE_EVENT, readCookieChoice } from '@/lib/tracking/cookie-choice';
import { Link } from '@/components/ui/link';
import { writePreferenceCookie } from '@/lib/browser-cookies';

const noSubscribe = () => () => {};

/**
 * The cookie banner: shown until the visitor chooses; Accept sets `acceptCookie=1`, Decline `0`, for a
 * year (path /, SameSite=Lax), and announces it with the `cookiechoice` window event (ad events waiting for the answer
 * are then sent or dropped). Essential cookies (session, language) need no consent. Nothing optional is set before.
 *
 * A slim bar at the bottom, so it never covers a page's form: one short text with the policy link and the two choices
 * side by side, at most 64 px tall on a 360 px phone in every language (the buttons keep the 44 px height of WCAG 2.2
 * targets, their labels wrap on a phone and both take the row's height). "Accept all" and "Essential only" are on the same layer and
 * look the same, so neither choice is pushed (EDPB Cookie Banner Taskforce report, 18 January 2023: the refusal on the
 * first layer, no deceptive button colours or contrast). While it shows,
 * a spacer of its height ends the footer, so it hides none of the page.
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
    writePreferenceCookie('acceptCookie', value);
    setChosen(true);
    dispatchEvent(new Event(COOKIE_CHOICE_EVENT));
  };
  const button =
    'min-h-11 w-20 shrink-0 rounded-lg bg-brand px-1.5 text-xs leading-4 font-semibold text-white hover:bg-brand-dark sm:w-auto sm:px-4 sm:text-sm';
  return (
    <>
      <div aria-hidden className="h-16" />
      <section
        aria-label={labels.label}
        className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-3 py-1.5 shadow-lg backdrop-blur sm:py-2"
        data-testid="cookie-banner"
      >
        <div className="mx-auto flex max-w-5xl items-stretch gap-2 sm:gap-3">
          <p className="min-w-0 flex-1 self-center text-xs leading-4 text-slate-700 sm:text-sm">
            {labels.text}{' '}
            <Link href={policyHref} className="text-brand underline">
              {labels.more}
            </Link>
          </p>
          <button type="button" onClick={() => choose('0')} className={button}>
            {labels.decline}
          </button>
          <button type="button" onClick={() => choose('1')} className={button}>
            {labels.accept}
          </button>
        </div>
      </section>
    </>
  );
}
