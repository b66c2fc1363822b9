'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import type { UndeliveredEmail, UserInfo } from '@/lib/contracts/account';
import { formatDateTime } from '@/lib/intl-format';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import { signOut } from '@/lib/api/browser';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { changePasswordSchema, choosePasswordSchema, type ChangePasswordValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { NewPasswordFields } from './new-password-fields';
import { useServerErrors } from './use-server-errors';
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
  /** Whether the password was just changed (the confirmation replaces the form); `chosen`: it replaced a temporary one. */
  const [done, setDone] = useState<{ chosen: boolean } | null>(null);
  const [undelivered, setUndelivered] = useState<UndeliveredEmail[]>([]);
  const form = useForm<ChangePasswordValues, { restricted: boolean }>({
    // A session opened with the temporary password only chooses the new one.
    resolver: (values, context, options) =>
      context?.restricted
        ? (zodResolver(choosePasswordSchema)(values, context, options as never) as ReturnType<
            Resolver<ChangePasswordValues>
          >)
        : zodResolver(changePasswordSchema)(values, context, options),
    context: {
      restricted: me !== null && me !== 'signed-out' && (me.mustChangePassword || me.choosesFirstPassword),
    },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const { alert, setAlert, report } = useServerErrors(setError, ['password', 'newPassword']);

  useEffect(() => {
    api
      .call('GET /admin/userSession/current')
      .then(setMe, (e: ApiClientError) => setMe(e.code === SESSION_INVALID ? 'signed-out' : null));
    // Mail that has not arrived (a temporary password, a reset code): said here rather than left to guesswork.
    api.call('GET /admin/user/undeliveredEmails').then(setUndelivered, () => setUndelivered([]));
  }, [api]);
  const when = (iso: string) => formatDateTime(iso, locale);

  if (me === 'signed-out') {
    return <SignInPrompt />;
  }
  if (!me) return <p aria-busy="true">…</p>;

  /** The first password, chosen without the temporary one: after signing in with it, or in the payment's own session. */
  const firstPassword = me.mustChangePassword || me.choosesFirstPassword;
  const onSubmit = handleSubmit(async ({ password, newPassword }) => {
    setAlert(null);
    try {
      const body = firstPassword ? { newPassword } : { password, newPassword };
      await api.call('PUT /admin/user/password', { body });
      setDone({ chosen: firstPassword });
      setMe({ ...me, mustChangePassword: false, choosesFirstPassword: false });
      reset();
    } catch (error) {
      report(error);
    }
  });

  return (
    <section className="mx-auto max-w-md space-y-6">
      <div>
        <h1 className="text-2xl font-bold">{t('accountTitle')}</h1>
        <p className="mt-1 text-slate-700">{t('signedInAs', { email: me.email })}</p>
      </div>
      {undelivered.length > 0 && (
        <div
          role="status"
          data-testid="undelivered-emails"
          className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300"
        >
          <p className="font-semibold">{t('undeliveredTitle')}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
            {undelivered.map((m) => (
              <li key={m.createdAt}>
                {m.status === 'queued' && m.nextAttemptAt
                  ? t('undeliveredRetry', {
                      subject: m.subject ?? '',
                      date: when(m.createdAt),
                      next: when(m.nextAttemptAt),
                    })
                  : t('undeliveredFailed', { subject: m.subject ?? '', date: when(m.createdAt) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {me.mustChangePassword && <FormAlert message={t('mustChange')} />}
      {me.choosesFirstPassword && !done && (
        <p className="rounded-xl bg-blue-50 p-4 text-slate-800 ring-1 ring-blue-200" data-testid="first-password">
          {t('firstPasswordHint', { email: me.email })}
        </p>
      )}
      {done ? (
        <div
          role="status"
          data-testid="password-changed"
          className="space-y-3 rounded-2xl bg-green-50 p-6 ring-1 ring-green-200"
        >
          <h2 className="text-lg font-semibold text-green-900">{t('passwordChangedTitle')}</h2>
          <p className="text-slate-800">
            {t(done.chosen ? 'passwordChosenText' : 'passwordChangedText', { email: me.email })}
          </p>
          <button
            type="button"
            onClick={() => setDone(null)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 text-sm"
          >
            {t('changeAgain')}
          </button>
        </div>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          className="space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
        >
          {!firstPassword && <FormField form={form} name="password" kind="password" label={t('currentPassword')} />}
          <NewPasswordFields form={form} />
          <FormAlert message={alert} />
          <SubmitButton busy={isSubmitting} label={t('changeSubmit')} busyLabel={t('working')} />
        </form>
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
