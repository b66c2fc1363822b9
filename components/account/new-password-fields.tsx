'use client';
import { useTranslations } from 'next-intl';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { TextField } from '../ui/text-field';

type PasswordPair = { newPassword: string; confirm: string };

/** The new password and its repetition, with the policy hint (used by the reset and change-password forms). */
export function NewPasswordFields<T extends PasswordPair>({
  register,
  errors,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const t = useTranslations('Auth');
  // The two field names exist on every form this is used in (T extends PasswordPair).
  const reg = register as unknown as UseFormRegister<PasswordPair>;
  const errs = errors as FieldErrors<PasswordPair>;
  return (
    <>
      <TextField
        id="newPassword"
        type="password"
        autoComplete="new-password"
        label={t('newPassword')}
        hint={t('passwordHint')}
        error={errs.newPassword?.message}
        {...reg('newPassword')}
      />
      <TextField
        id="confirm"
        type="password"
        autoComplete="new-password"
        label={t('confirmPassword')}
        error={errs.confirm?.message}
        {...reg('confirm')}
      />
    </>
  );
}
