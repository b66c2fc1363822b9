'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
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
 * same whether or not the account exists; then the reset page opens for that address (`/reset/?email=…&sent=1`), which
 * says where the code went and does not ask for the e-mail again. "I have a code" leads there for a code sent before.
 */
export function ForgetForm() {
  const t = useTranslations('Auth');
  const locale = useLocale();
  const api = useApi();
  const router = useRouter();
  const form = useForm<ForgetValues>({ resolver: zodResolver(forgetSchema) });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const { alert, report } = useServerErrors(setError, ['email']);

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await api.call('GET /admin/userSession/forgetPassword/{email}', { params: { email } });
      router.push(localePath(locale, `/reset/?email=${encodeURIComponent(email)}&sent=1`));
    } catch (error) {
      report(error);
    }
  });

  return (
    <FormCard title={t('forgetTitle')} lead={t('forgetLead')}>
      <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
        <FormField form={form} name="email" kind="account" label={t('email')} />
        <FormAlert message={alert} />
        <SubmitButton busy={isSubmitting} label={t('sendCode')} busyLabel={t('working')} />
      </form>
      <Link href={localePath(locale, '/reset/')} className="mt-4 block text-sm text-brand underline">
        {t('haveCode')}
      </Link>
    </FormCard>
  );
}
