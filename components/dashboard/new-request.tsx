'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { TextField } from '../ui/text-field';
import { Link } from '@/components/ui/link';
import { OwnerNoteField } from '../locate/owner-note-field';
import { RequesterNameField } from '../locate/requester-name-field';
import type { NewRequest as CreatedRequest, SmsText } from '@/lib/contracts/locations';
import { useNewRequest, type NewRequestValues } from './use-new-request';

/** SMS languages the buyer may pick; '' means the number's country decides. Names are each language's own. */
const LANGUAGES = [
  ['en', 'English'],
  ['es', 'Español'],
  ['id', 'Bahasa Indonesia'],
] as const;

/**
 * `/getLocation` (docs/rules.md#routes): a subscriber asks for another number's location: the number, the requester
 * name the owner will see and the SMS text (previewed in the page's language with that name) → `POST
 * /spyContent/phoneLocation`; then a link to the request's map. Quota, subscription and SMS-guard refusals appear as
 * the server words them. The form and its calls are useNewRequest's (./use-new-request.ts).
 */
export function NewRequest() {
  const t = useTranslations('Dashboard');
  const { form, phoneInput, texts, chosen, requesterName, note, alert, created, onSubmit } = useNewRequest();
  const {
    register,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = form;

  return (
    <FormCard title={t('getTitle')} lead={t('getLead')}>
      {created ? (
        <RequestCreated created={created} />
      ) : (
        <form noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
          <TextField
            id="phone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            label={t('phone')}
            error={errors.phone?.message}
            hint={phoneInput.hint}
            {...register(
              'phone',
              phoneInput.registerOptions(
                () => getValues('phone'),
                (v) => setValue('phone', v),
              ),
            )}
          />
          <RequesterNameField error={errors.requesterName?.message} {...register('requesterName')} />
          <OwnerNoteField value={note} error={errors.note?.message} {...register('note')} />
          <SmsLanguageSelect {...register('locale')} />
          <SmsTextChoice texts={texts} chosen={chosen} requesterName={requesterName} register={register} />
          <FormAlert message={alert} />
          <SubmitButton busy={isSubmitting} label={t('send')} busyLabel="…" />
        </form>
      )}
    </FormCard>
  );
}

/**
 * What New request shows once the request is made: that the SMS was sent, the consent link (`created.link`, shown
 * once) in a read-only field with a Copy link button, and the way to the request's map (`/map/?id=`).
 */
function RequestCreated({ created }: { created: CreatedRequest }) {
  const t = useTranslations('Dashboard');
  const locale = useLocale() as AppLocale;
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-4 space-y-4">
      <FormAlert message={t('sent')} tone="success" />
      <p className="text-sm text-slate-700">{t('linkNote')}</p>
      <div className="flex gap-2">
        <input
          readOnly
          value={created.link}
          aria-label={t('copyLink')}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
          data-testid="consent-link"
        />
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(created.link).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          className="rounded-lg border border-brand px-3 py-2 text-sm font-semibold text-brand"
        >
          {copied ? t('copied') : t('copyLink')}
        </button>
      </div>
      <Link
        href={localePath(locale, `/map/?id=${created.id}`)}
        className="inline-block rounded-lg bg-brand px-6 py-3 font-semibold text-white"
      >
        {t('openMap')}
      </Link>
    </div>
  );
}

/**
 * The SMS language select: automatic (the number's country decides) or one of LANGUAGES; `field` is
 * `register('locale')`.
 */
function SmsLanguageSelect(field: UseFormRegisterReturn<'locale'>) {
  const t = useTranslations('Dashboard');
  return (
    <div>
      <label htmlFor="locale" className="block text-sm font-medium text-slate-800">
        {t('smsLanguage')}
      </label>
      <select id="locale" className="field-input" {...field}>
        <option value="">{t('languageAuto')}</option>
        {LANGUAGES.map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The SMS text choice: a radio per text of `texts` (those of the SMS's language), each previewed with `requesterName`
 * (the placeholder name while empty) and a sample link; `chosen` (the checked text's id) is highlighted.
 */
function SmsTextChoice({
  texts,
  chosen,
  requesterName,
  register,
}: {
  texts: SmsText[];
  chosen: string;
  requesterName: string;
  register: UseFormRegister<NewRequestValues>;
}) {
  const t = useTranslations('Dashboard');
  const tBox = useTranslations('LocateBox');
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{t('smsText')}</legend>
      {texts.map((x) => (
        <label
          key={x.id}
          className={`mt-2 flex gap-2 rounded-lg border p-3 text-sm ${chosen === x.id ? 'border-brand bg-brand-light' : 'border-slate-300'}`}
        >
          <input type="radio" value={x.id} {...register('text')} />
          <span>
            {x.text
              .replace('{requester}', requesterName || tBox('requesterPlaceholder'))
              .replace('{link}', `${location.origin}/location/?c=…`)}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
