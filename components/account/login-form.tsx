'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fullLoad } from '@/lib/api/browser';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { loginSchema, phoneFromQuery, type LoginValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { useServerErrors } from './use-server-errors';
import { Link } from '@/components/ui/link';
import { safeNext } from '@/lib/routing/rules';

/** Where `?redirect=` may lead after sign-in (a fixed list, so the parameter cannot send users off-site). */
const REDIRECTS: Record<string, string> = {
  billing: '/dashboard/billing/',
  locations: '/dashboard/locations/',
  getLocation: '/getLocation/',
};

/**
 * `/login` (docs/rules.md#routes): e-mail and password (`POST /admin/userSession`). A temporary password leads to the account
 * page to choose a password; otherwise to `?redirect=` (billing → the billing page), to `?next=` (the page that sent
 * the visitor here, `safeNext`) or the dashboard. Also offers the
 * forgotten-password page and, for buyers who lost their credentials e-mail, a code to choose their own password
 * (`restPassword`; it never replaces the temporary password) with a link to enter it on `/reset`.
 */
export function LoginForm() {
  const t = useTranslations('Auth');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const params = useSearchParams();
  // `phone` (digits, spaces, +) rides along to New request: a buyer sent here by the pay step continues there.
  const phone = phoneFromQuery(params.get('phone'));
  const target = REDIRECTS[params.get('redirect') ?? ''];
  const next = safeNext(params.get('next'));
  const redirect =
    target === '/getLocation/' && phone
      ? localePath(locale, `${target}?phone=${encodeURIComponent(phone)}`)
      : target
        ? localePath(locale, target)
        : (next ?? localePath(locale, '/dashboard/locations/'));
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema) });
  const {
    handleSubmit,
    setError,
    getValues,
    formState: { isSubmitting },
  } = form;
  const { alert, setAlert, report } = useServerErrors(setError, ['email', 'password']);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const user = await api.call('POST /admin/userSession', { body: values });
      fullLoad(user.mustChangePassword ? localePath(locale, '/dashboard/account/') : redirect);
    } catch (error) {
      report(error);
    }
  });

  const sendTemporary = async () => {
    const email = getValues('email');
    if (!email) return setError('email', { message: 'Validation.emailRequired' });
    try {
      const res = await api.call('PUT /admin/userSession/restPassword/{email}', { params: { email }, whole: true });
      setNotice(res.msg);
    } catch (error) {
      report(error);
    }
  };

  return (
    <FormCard title={t('loginTitle')}>
      <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
        <FormField form={form} name="email" kind="account" label={t('email')} />
        <FormField form={form} name="password" kind="password" label={t('password')} />
        <FormAlert message={alert} />
        <SubmitButton busy={isSubmitting} label={t('submit')} busyLabel={t('working')} />
      </form>
      <div className="mt-4 space-y-2 text-sm">
        <Link href={localePath(locale, '/forget/')} className="flex min-h-6 items-center text-brand underline">
          {t('forgotLink')}
        </Link>
        <p className="text-slate-600">{t('lostTemporary')}</p>
        <button type="button" onClick={sendTemporary} className="min-h-11 text-left text-brand underline">
          {t('sendTemporary')}
        </button>
        <FormAlert message={notice} tone="success" />
        {notice && (
          <Link
            href={localePath(locale, `/reset/?email=${encodeURIComponent(getValues('email'))}`)}
            className="flex min-h-6 items-center text-brand underline"
          >
            {t('enterCode')}
          </Link>
        )}
      </div>
    </FormCard>
  );
}
