'use client';
import { useSyncExternalStore } from 'react';
import { Link } from '@/components/ui/link';
import { localePath } from '@/i18n/routing';
import { readUserInfo, subscribeUserInfo } from '@/lib/user-info';
import { useReturnQuery } from './sign-in-prompt';
import { HEADER_MENU_GROUP } from './header-menu-group';

type Labels = {
  signIn: string;
  menu: string;
  account: string;
  dashboard: string;
  billing: string;
  signOut: string;
  network: string;
};

/**
 * The header's account area: "Sign in" for visitors (returning to the page they were on); for a
 * signed-in subscriber (the `userInfo` cookie) one disclosure menu with My locations, Billing, My account and Sign out
 * (`DELETE /admin/userSession`), which fits a 360 px header in every language; on a phone its panel spans the header
 * (globals.css `menu-panel`), never cut at the screen's edge, and opening it closes the header's other menus
 * (HEADER_MENU_GROUP). It follows the cookie, so the payment's
 * success page shows the signed-in header as soon as the payment signed the buyer in. Labels come translated from the
 * server component, so the island carries no message catalogue. The server render shows the visitor's view.
 */
export function AccountMenu({ locale, labels }: { locale: string; labels: Labels }) {
  const email = useSyncExternalStore(
    subscribeUserInfo,
    () => readUserInfo()?.email ?? null,
    () => null,
  );
  const back = useReturnQuery();

  if (!email) {
    return (
      <Link
        href={localePath(locale, `/login/${back}`)}
        data-btn-id="header_sign_in"
        className="inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-slate-700 hover:text-brand"
      >
        {labels.signIn}
      </Link>
    );
  }
  const signOut = async () => {
    // Loaded on use, so the API client is not part of every page's first load.
    const { browserApi, signOut: signOutWith } = await import('@/lib/api/browser');
    await signOutWith(browserApi(locale, labels.network), locale);
  };
  const item = 'menu-item w-full';
  return (
    <details name={HEADER_MENU_GROUP} className="sm:relative" data-testid="account-menu">
      <summary className="flex min-h-11 cursor-pointer list-none items-center rounded-lg px-2 text-sm font-medium text-slate-700 hover:text-brand">
        {labels.menu}
        <span aria-hidden className="ml-1">
          ▾
        </span>
      </summary>
      <ul className="menu-panel sm:w-56">
        <li className="truncate px-3 py-1 text-xs text-slate-600" title={email}>
          {email}
        </li>
        <li>
          <Link href={localePath(locale, '/dashboard/locations/')} className={item}>
            {labels.dashboard}
          </Link>
        </li>
        <li>
          <Link href={localePath(locale, '/dashboard/billing/')} className={item}>
            {labels.billing}
          </Link>
        </li>
        <li>
          <Link href={localePath(locale, '/dashboard/account/')} className={item}>
            {labels.account}
          </Link>
        </li>
        <li>
          <button type="button" onClick={signOut} className={item}>
            {labels.signOut}
          </button>
        </li>
      </ul>
    </details>
  );
}
