'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Envelope } from '@/lib/api/client';
import { localePath } from '@/i18n/routing';
import { resetSchema, type ResetValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { NewPasswordFields } from './new-password-fields';
import { useServerErrors } from './use-server-errors';
import { Link } from '@/components/ui/link';

/**
 * `/reset` (docs/rules.md#routes): e-mail, the 6-digit code and a new password twice
 * (`PUT /admin/userSession/forgetPassword/{email}`); on success ('Your password was reset…') a link to sign in.
 */
export function ResetForm() {
  const t = useTranslations('Auth');
  const locale = useLocale();
  const api = useApi();
  const [done, setDone] = useState<string | null>(null);
  const email = useSearchParams().get('email') ?? '';
  const form = useForm<ResetValues>({ resolver: zodResolver(resetSchema), defaultValues: { email } });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const { alert, setAlert, report } = useServerErrors(setError, ['email', 'code', 'newPassword']);

  const onSubmit = handleSubmit(async ({ email: address, code, newPassword }) => {
    setAlert(null);
    try {
      const res = await api.put<Envelope<null>>(
        `/admin/userSession/forgetPassword/${encodeURIComponent(address)}`,
        { code, newPassword },
        true,
      );
      setDone(res.msg);
    } catch (error) {
      report(error);
    }
  });

  return (
    <FormCard title={t('resetTitle')}>
      {done ? (
        <div className="mt-4 space-y-4">
          <FormAlert message={done} tone="success" />
          <Link
            href={localePath(locale, '/login/')}
            className="inline-block rounded-lg bg-brand px-6 py-3 font-semibold text-white"
          >
            {t('goLogin')}
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
          <FormField form={form} name="email" kind="account" label={t('email')} />
          <FormField form={form} name="code" kind="code" label={t('code')} />
          <NewPasswordFields form={form} />
          <FormAlert message={alert} />
          <SubmitButton busy={isSubmitting} label={t('resetSubmit')} busyLabel={t('working')} />
        </form>
      )}
    </FormCard>
  );
}
