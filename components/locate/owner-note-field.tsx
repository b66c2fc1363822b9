'use client';
import { useTranslations } from 'next-intl';
import type { TextareaHTMLAttributes } from 'react';
import { OWNER_NOTE } from '@/lib/validation/requester-name';
import { FieldError } from '../ui/field-error';

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
    <div>
      <label htmlFor="note" className="block text-sm font-medium text-slate-800">
        {t('noteLabel')}
      </label>
      <textarea
        id="note"
        rows={2}
        aria-invalid={!!error}
        aria-describedby="note-hint note-count note-error"
        placeholder={t('notePlaceholder')}
        className="field-input"
        value={value}
        {...input}
      />
      <div className="mt-1 flex justify-between gap-3 text-xs text-slate-600">
        <p id="note-hint">{t('noteHint')}</p>
        <p id="note-count" className={`shrink-0 tabular-nums ${count > OWNER_NOTE.max ? 'text-red-700' : ''}`}>
          {t('noteCount', { count, max: OWNER_NOTE.max })}
        </p>
      </div>
      <FieldError id="note-error" message={error} />
    </div>
  );
}
