'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { UndeliveredEmail, UserInfo } from '@/lib/contracts/account';
import { useEffect, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import { signOut } from '@/lib/api/browser';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { FormAlert } from '../ui/form-alert';
import { useApi } from '../ui/use-api';
import { PasswordChanged, UndeliveredEmails } from './account-notices';
import { PasswordChangeForm } from './password-change-form';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';

/**
 * `/dashboard/account`: who is signed in, the password change (`PUT /admin/user/password`), and sign-out. A session
 * opened with a temporary password lands here and must choose a password before anything else works; the session a
 * payment opened for the new account chooses its first password here without the e-mailed temporary one, which the
 * buyer never had to read (`choosesFirstPassword`, docs/security.md "Accounts"). A change that
 * succeeded replaces the form by a confirmation saying what changed (the new password is the one to use, other
 * devices were signed out, a notice was e-mailed), with a button to change it again — the form does not come back on
 * its own asking for the "current" password just chosen.
 */
export function AccountPanel() {
  const t = useTranslations('Auth');
  const tDash = useTranslations('Dashboard');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [me, setMe] = useState<UserInfo | null | 'signed-out'>(null);
  /**
   * Whether the password was just changed (the confirmation replaces the form); `chosen`: it replaced a temporary
   * one.
   */
  const [done, setDone] = useState<{ chosen: boolean } | null>(null);
  const [undelivered, setUndelivered] = useState<UndeliveredEmail[]>([]);

  useEffect(() => {
    api
      .call('GET /admin/userSession/current')
      .then(setMe, (e: ApiClientError) => setMe(e.code === SESSION_INVALID ? 'signed-out' : null));
    // Mail that has not arrived (a temporary password, a reset code): said here rather than left to guesswork.
    api.call('GET /admin/user/undeliveredEmails').then(setUndelivered, () => setUndelivered([]));
  }, [api]);

  if (me === 'signed-out') {
    return <SignInPrompt />;
  }
  if (!me) return <p aria-busy="true">…</p>;

  /**
   * The first password, chosen without the temporary one: after signing in with it, or in the payment's own
   * session.
   */
  const firstPassword = me.mustChangePassword || me.choosesFirstPassword;

  return (
    <section className="mx-auto max-w-md space-y-6">
      <div>
        <h1 className="text-2xl font-bold">{t('accountTitle')}</h1>
        <p className="mt-1 text-slate-700">{t('signedInAs', { email: me.email })}</p>
      </div>
      <UndeliveredEmails emails={undelivered} />
      {me.mustChangePassword && <FormAlert message={t('mustChange')} />}
      {me.choosesFirstPassword && !done && (
        <p className="rounded-xl bg-blue-50 p-4 text-slate-800 ring-1 ring-blue-200" data-testid="first-password">
          {t('firstPasswordHint', { email: me.email })}
        </p>
      )}
      {done ? (
        <PasswordChanged chosen={done.chosen} email={me.email} onChangeAgain={() => setDone(null)} />
      ) : (
        <PasswordChangeForm
          firstPassword={firstPassword}
          onChanged={() => {
            setDone({ chosen: firstPassword });
            setMe({ ...me, mustChangePassword: false, choosesFirstPassword: false });
          }}
        />
      )}
      {!me.mustChangePassword && (
        <Link href={localePath(locale, '/dashboard/locations/')} className="block text-brand underline">
          {tDash('title')}
        </Link>
      )}
      <button
        type="button"
        onClick={() => signOut(api, locale)}
        className="min-h-11 rounded-lg border border-slate-300 px-4 text-sm"
      >
        {t('signOut')}
      </button>
    </section>
  );
}
