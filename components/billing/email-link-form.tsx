'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useForm } from 'react-hook-form';
import { forgetSchema, type ForgetValues } from '@/lib/validation/schemas';
import { SubmitButton } from '../ui/form-alert';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';

/** What the e-mail step reports: the confirmation (`status`) or the server's localized error (`alert`). */
export type LinkFormMessage = { text: string; role: 'status' | 'alert' };

/**
 * The e-mail step of the pages that work without signing in, cancelling (`/cancel`) and withdrawing (`/withdraw`): the
 * account's e-mail, checked by the same schema as the password-reset form, is posted as `{ email, locale }` to
 * `endpoint`, which sends a single-use link and answers alike whether or not the address has an account
 * (docs/rules.md#api). `onResult` gets the namespace's `sent` text, or the error the API answered (already localized).
 * Texts: messages/*.json `Cancel` or `Withdraw` (`emailLead`, `email`, `send`, `working`, `sent`).
 */
export function EmailLinkForm({
  namespace,
  endpoint,
  onResult,
}: {
  namespace: 'Cancel' | 'Withdraw';
  endpoint: 'POST /portal/cancel/request' | 'POST /portal/withdraw/request';
  onResult: (message: LinkFormMessage) => void;
}) {
  const t = useTranslations(namespace);
  const locale = useLocale();
  const api = useApi();
  const form = useForm<ForgetValues>({ resolver: zodResolver(forgetSchema), defaultValues: { email: '' } });
  const { isSubmitting } = form.formState;

  const onSend = form.handleSubmit(async ({ email }) => {
    try {
      await api.call(endpoint, { body: { email, locale } });
      onResult({ text: t('sent'), role: 'status' });
    } catch (e) {
      onResult({ text: (e as Error).message, role: 'alert' });
    }
  });

  return (
    <form noValidate onSubmit={onSend} className="space-y-3">
      <p className="text-slate-700">{t('emailLead')}</p>
      <FormField form={form} name="email" kind="email" id={`${namespace.toLowerCase()}-email`} label={t('email')} />
      <SubmitButton busy={isSubmitting} label={t('send')} busyLabel={t('working')} wide={false} />
    </form>
  );
}

/** The message under a page's form: a confirmation, or an error in red (`role="alert"`). */
export function LinkMessage({ message }: { message: LinkFormMessage | null }) {
  if (!message) return null;
  return (
    <p role={message.role} className={message.role === 'alert' ? 'text-red-700' : 'text-slate-800'}>
      {message.text}
    </p>
  );
}
