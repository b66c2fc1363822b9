'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { contactSchema, type ContactValues } from '@/lib/validation/schemas';
import { TextAreaField } from '../ui/text-field';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormField } from '../ui/form-field';
import { useApi } from '../ui/use-api';

/**
 * The contact form (`/contact-us`): name, e-mail and message validated with the shared schema, sent to
 * `POST /other/contact` (stored, support e-mailed, rate limited). Errors are localized; the text is kept on failure.
 */
export function ContactForm() {
  const t = useTranslations('ContactUs');
  const locale = useLocale();
  const api = useApi();
  const [result, setResult] = useState<{ text: string; tone: 'error' | 'success' } | null>(null);
  const form = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: '', message: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setResult(null);
    try {
      await api.call('POST /other/contact', { body: { ...values, locale } });
      reset();
      setResult({ text: t('sent'), tone: 'success' });
    } catch (e) {
      setResult({ text: (e as Error).message, tone: 'error' });
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
      <FormField form={form} name="name" kind="name" id="contact-name" label={t('name')} />
      <FormField form={form} name="email" kind="email" id="contact-email" label={t('email')} />
      <TextAreaField
        id="contact-message"
        label={t('message')}
        rows={6}
        maxLength={2000}
        error={errors.message?.message}
        {...register('message')}
      />
      <FormAlert message={result?.text ?? null} tone={result?.tone} />
      <SubmitButton busy={isSubmitting} label={t('send')} busyLabel={t('working')} />
    </form>
  );
}
