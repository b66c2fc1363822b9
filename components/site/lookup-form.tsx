'use client';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { SubmitButton } from '../ui/form-alert';
import { TextField } from '../ui/text-field';

/**
 * The one-field form of the free tools (`/phone-finder`, `/ip-tracker`): a labelled input and a submit button whose
 * busy label shows while `onLookup` runs. The texts are the tool's catalogue entries `label`, `submit` and `checking`
 * (e.g. `Landing.ipTracker`). `onLookup` resolves to an error message to show under the field, or null.
 */
export function LookupForm({
  id,
  texts,
  onLookup,
  input,
}: {
  id: string;
  /** The tool's catalogue namespace. */
  texts: 'Landing.phoneFinder' | 'Landing.ipTracker';
  onLookup: (value: string) => Promise<string | null>;
  input: InputHTMLAttributes<HTMLInputElement>;
}) {
  const t = useTranslations(texts);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(await onLookup(value.trim()));
    setBusy(false);
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
      <TextField
        id={id}
        label={t('label')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={error ?? undefined}
        className="flex-1"
        {...input}
      />
      <SubmitButton busy={busy} label={t('submit')} busyLabel={t('checking')} wide={false} />
    </form>
  );
}
