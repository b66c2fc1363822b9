'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Envelope } from '@/lib/api/client';
import { localePath } from '@/i18n/routing';
import { forgetSchema, type ForgetValues } from '@/lib/validation/schemas';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';
import { useServerErrors } from './use-server-errors';
import { Link } from '@/components/ui/link';

/**
 * `/forget` (docs/rules.md#routes): asks for a reset code (`GET /admin/userSession/forgetPassword/{email}`). The answer is the
 * same whether or not the account exists; then a link to `/reset` with the e-mail filled in.
 */
export function ForgetForm() {
  const t = useTranslations('Auth');
  const locale = useLocale();
  const api = useApi();
  const [sent, setSent] = useState<{ email: string; msg: string } | null>(null);
  const form = useForm<ForgetValues>({ resolver: zodResolver(forgetSchema) });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const { alert, report } = useServerErrors(setError, ['email']);

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      const res = await api.get<Envelope<null>>(
        `/admin/userSession/forgetPassword/${encodeURIComponent(email)}`,
        undefined,
        true,
      );
      setSent({ email, msg: res.msg });
    } catch (error) {
      report(error);
    }
  });

  return (
    <FormCard title={t('forgetTitle')} lead={t('forgetLead')}>
      <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
        <FormField form={form} name="email" kind="account" label={t('email')} />
        <FormAlert message={alert} />
        <FormAlert message={sent?.msg ?? null} tone="success" />
        <SubmitButton busy={isSubmitting} label={t('sendCode')} busyLabel={t('working')} />
      </form>
      <Link
        href={localePath(locale, `/reset/${sent ? `?email=${encodeURIComponent(sent.email)}` : ''}`)}
        className="mt-4 block text-sm text-brand underline"
      >
        {t('haveCode')}
      </Link>
    </FormCard>
  );
}
