'use client';
import { useTranslations } from 'next-intl';

/**
 * A form field's error, translated: schema messages are keys like `Validation.emailInvalid`; server messages arrive
 * already localized and are shown as they are.
 */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const t = useTranslations('Validation');
  if (!message) return null;
  const text = message.startsWith('Validation.')
    ? t(message.slice('Validation.'.length) as 'invalid', { field: '' })
    : message;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {text}
    </p>
  );
}
