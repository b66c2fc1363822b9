'use client';
import { useTranslations } from 'next-intl';
import type { ComponentProps } from 'react';
import { TextField } from '../ui/text-field';

/**
 * The requester name field of the locate box and New request: "Your name, as the owner will see it",
 * with its example and the note that the SMS and the owner's page show it. `input` carries react-hook-form's
 * `register('requesterName')` and the field's error. Needs the `LocateBox` messages.
 */
export function RequesterNameField(input: Omit<ComponentProps<typeof TextField>, 'id' | 'label'>) {
  const t = useTranslations('LocateBox');
  return (
    <TextField
      id="requesterName"
      label={t('requesterLabel')}
      autoComplete="name"
      maxLength={60}
      placeholder={t('requesterPlaceholder')}
      hint={t('requesterHint')}
      {...input}
    />
  );
}
