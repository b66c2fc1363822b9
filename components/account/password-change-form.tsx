'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useForm, type Resolver } from 'react-hook-form';
import { changePasswordSchema, choosePasswordSchema, type ChangePasswordValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { NewPasswordFields } from './new-password-fields';
import { useServerErrors } from './use-server-errors';

/**
 * The account page's password form (`PUT /admin/user/password`): the current password, then the new one twice. With
 * `firstPassword` (a session opened with the temporary password, or the one a payment opened for the new account) the
 * current password is neither asked nor sent. Server refusals go under their field or in the form's alert; a change
 * that succeeded empties the form and calls `onChanged`. Needs the `Auth` messages.
 */
export function PasswordChangeForm({ firstPassword, onChanged }: { firstPassword: boolean; onChanged: () => void }) {
  const t = useTranslations('Auth');
  const api = useApi();
  const form = useForm<ChangePasswordValues, { restricted: boolean }>({
    // A session opened with the temporary password only chooses the new one.
    resolver: (values, context, options) =>
      context?.restricted
        ? (zodResolver(choosePasswordSchema)(values, context, options as never) as ReturnType<
            Resolver<ChangePasswordValues>
          >)
        : zodResolver(changePasswordSchema)(values, context, options),
    context: { restricted: firstPassword },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const { alert, setAlert, report } = useServerErrors(setError, ['password', 'newPassword']);

  const onSubmit = handleSubmit(async ({ password, newPassword }) => {
    setAlert(null);
    try {
      const body = firstPassword ? { newPassword } : { password, newPassword };
      await api.call('PUT /admin/user/password', { body });
      onChanged();
      reset();
    } catch (error) {
      report(error);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      {!firstPassword && <FormField form={form} name="password" kind="password" label={t('currentPassword')} />}
      <NewPasswordFields form={form} />
      <FormAlert message={alert} />
      <SubmitButton busy={isSubmitting} label={t('changeSubmit')} busyLabel={t('working')} />
    </form>
  );
}
