'use client';
import { useTranslations } from 'next-intl';
import type { TextareaHTMLAttributes } from 'react';
import { OWNER_NOTE } from '@/lib/validation/requester-name';
import { TextAreaField } from '../ui/text-field';

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value'> & {
  /** The current text, for the character count. */
  value: string;
  /** The field's error: a `Validation.note*` key or a localized server message. */
  error?: string;
};

/**
 * The optional note to the owner of the pay step and New request: a two-line text area labelled "A note
 * to the owner (optional)", with the hint that it is shown under the requester's name on the consent page and never
 * sent in the SMS, and a live count of characters (Unicode code points) against `OWNER_NOTE.max` (140). Controlled:
 * pass `value` and `onChange`, or spread react-hook-form's `register('note')` with `value` from `useWatch`. Needs the
 * `LocateBox` and `Validation` messages.
 */
export function OwnerNoteField({ value, error, ...input }: Props) {
  const t = useTranslations('LocateBox');
  const count = [...value].length;
  return (
    <TextAreaField
      id="note"
      label={t('noteLabel')}
      rows={2}
      placeholder={t('notePlaceholder')}
      hint={t('noteHint')}
      counter={{ text: t('noteCount', { count, max: OWNER_NOTE.max }), over: count > OWNER_NOTE.max }}
      error={error}
      value={value}
      {...input}
    />
  );
}
