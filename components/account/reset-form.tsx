'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { resetSchema, type ResetValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { NewPasswordFields } from './new-password-fields';
import { useServerErrors } from './use-server-errors';
import { LocaleLink } from '@/components/ui/locale-link';

/**
 * `/reset` (docs/rules.md#routes): the 6-digit code and a new password twice (`PUT
 * /admin/userSession/forgetPassword/{email}`). Opened from `/forget` (`?email=…&sent=1`) it says where the code went
 * and names the account rather than asking for the e-mail a second time (with a way back to use another); opened
 * directly it asks for the e-mail too. A reset signs the person in (docs/security.md "Sign-in and passwords"): on
 * success ('Your password was reset, and you are signed in…') a button to My locations; the header's account menu
 * follows the new session's `userInfo` cookie at once.
 */
export function ResetForm() {
  const t = useTranslations('Auth');
  const api = useApi();
  const [done, setDone] = useState<string | null>(null);
  const query = useSearchParams();
  const email = query.get('email') ?? '';
  const sent = !!email && query.get('sent') === '1';
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
      const res = await api.call('PUT /admin/userSession/forgetPassword/{email}', {
        params: { email: address },
        body: { code, newPassword },
        whole: true,
      });
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
          <LocaleLink
            path="/dashboard/locations/"
            className="inline-block rounded-lg bg-brand px-6 py-3 font-semibold text-white"
            data-testid="reset-signed-in"
          >
            {t('goDashboard')}
          </LocaleLink>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
          {email ? (
            <div className="space-y-2 text-sm text-slate-700" data-testid="reset-account">
              {sent && <FormAlert message={t('codeSentTo', { email })} tone="success" />}
              <p>
                {t('resetFor', { email })}{' '}
                <LocaleLink path="/forget/" className="text-brand underline">
                  {t('otherEmail')}
                </LocaleLink>
              </p>
            </div>
          ) : (
            <FormField form={form} name="email" kind="account" label={t('email')} />
          )}
          <FormField form={form} name="code" kind="code" label={t('code')} />
          <NewPasswordFields form={form} />
          <FormAlert message={alert} />
          <SubmitButton busy={isSubmitting} label={t('resetSubmit')} busyLabel={t('working')} />
        </form>
      )}
    </FormCard>
  );
}
