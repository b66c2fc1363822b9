'use client';
import { useTranslations } from 'next-intl';
import type { UseFormReturn } from 'react-hook-form';
import { FormField } from '../ui/form-field';

type PasswordPair = { newPassword: string; confirm: string };

/** The new password and its repetition, with the policy hint (used by the reset and change-password forms). */
export function NewPasswordFields<T extends PasswordPair>({ form }: { form: UseFormReturn<T> }) {
  const t = useTranslations('Auth');
  // The two field names exist on every form this is used in (T extends PasswordPair).
  const pair = form as unknown as UseFormReturn<PasswordPair>;
  return (
    <>
      <FormField form={pair} name="newPassword" kind="newPassword" label={t('newPassword')} hint={t('passwordHint')} />
      <FormField form={pair} name="confirm" kind="newPassword" label={t('confirmPassword')} />
    </>
  );
}
