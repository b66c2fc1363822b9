'use client';
import { useSyncExternalStore } from 'react';
import { Link } from '@/components/ui/link';
import { readUserInfo } from '@/lib/user-info';

type Labels = { signIn: string; account: string; dashboard: string; signOut: string; network: string };

const noSubscribe = () => () => {};

/**
 * The header's account area: "Sign in" for visitors; for a signed-in subscriber (the `userInfo` cookie) their
 * locations, account and a sign-out button (`DELETE /admin/userSession`). Labels come translated from the server
 * component, so the island carries no message catalogue. The server render shows the visitor's view.
 */
export function AccountMenu({ prefix, locale, labels }: { prefix: string; locale: string; labels: Labels }) {
  const email = useSyncExternalStore(
    noSubscribe,
    () => readUserInfo()?.email ?? null,
    () => null,
  );

  if (!email) {
    return (
      <Link
        href={`${prefix}/login/`}
        data-btn-id="header_sign_in"
        className="text-sm font-medium text-slate-700 hover:text-brand"
      >
        {labels.signIn}
      </Link>
    );
  }
  const signOut = async () => {
    // Loaded on use, so the API client is not part of every page's first load.
    const { browserApi, signOut: signOutWith } = await import('@/lib/api/browser');
    await signOutWith(browserApi(locale, labels.network), prefix);
  };
  return (
    <div className="flex items-center gap-4 text-sm font-medium text-slate-700">
      <Link href={`${prefix}/dashboard/locations/`} className="hover:text-brand">
        {labels.dashboard}
      </Link>
      <Link href={`${prefix}/dashboard/account/`} className="hover:text-brand" title={email}>
        {labels.account}
      </Link>
      <button type="button" onClick={signOut} className="hover:text-brand">
        {labels.signOut}
      </button>
    </div>
  );
}
