'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useSyncExternalStore } from 'react';
import { readUserInfo, subscribeUserInfo } from '@/lib/user-info';
import { Link } from '@/components/ui/link';
import { localePath } from '@/i18n/routing';

/** What a page's error state holds when the reason is a missing session: shown as `SignInPrompt`, not as text. */
export const SIGNED_OUT = 'signed-out';

/**
 * `?next=<this page>` for a sign-in link that comes back here (`''` on the server and on sign-in pages, which have
 * nowhere to come back to), read from the address after hydration.
 */
export function useReturnQuery(): string {
  const here = useSyncExternalStore(
    subscribeUserInfo,
    () => `${location.pathname}${location.search}`,
    () => '',
  );
  return here && !/\/(login|forget|reset)\/?$/.test(here.split('?')[0]) ? `?next=${encodeURIComponent(here)}` : '';
}

/**
 * What a page that needs a session shows to someone without one: "Please sign in to see this page" for
 * a visitor who never signed in on this browser, "Your session has ended" for one whose `userInfo` cookie says they
 * did or whose session the server called invalid (`ended`); and a Sign in link that comes back to this page (`/login/?next=<path>`), or to `redirect` (a named target of the
 * login page, e.g. `billing`) when given, under the page's locale prefix (i18n/routing.ts). Needs the `Dashboard` and
 * `Auth` messages.
 */
export function SignInPrompt({ redirect, ended }: { redirect?: string; ended?: boolean }) {
  const locale = useLocale();
  const t = useTranslations('Dashboard');
  const tAuth = useTranslations('Auth');
  const hadSession = useSyncExternalStore(
    subscribeUserInfo,
    () => readUserInfo() !== null,
    () => false,
  );
  const back = useReturnQuery();
  const query = redirect ? `?redirect=${redirect}` : back;
  return (
    <div role="alert" className="space-y-3" data-testid="sign-in-prompt">
      <p>{hadSession || ended ? t('signIn') : t('signInFirst')}</p>
      <Link
        href={localePath(locale, `/login/${query}`)}
        className="inline-flex min-h-11 items-center rounded-lg bg-brand px-5 font-semibold text-white"
      >
        {tAuth('signIn')}
      </Link>
    </div>
  );
}
