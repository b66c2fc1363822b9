'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod/mini';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { ownerNoteField, phoneField, phoneFromQuery, requesterNameField } from '@/lib/validation/schemas';
import { useServerErrors } from '../account/use-server-errors';
import { FormAlert, SubmitButton } from '../ui/form-alert';
import { FormCard } from '../ui/form-card';
import { TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';
import { Link } from '@/components/ui/link';
import { OwnerNoteField } from '../locate/owner-note-field';
import { RequesterNameField } from '../locate/requester-name-field';
import { usePhoneInput } from '../locate/use-phone-input';
import { phoneCountries, phoneCountryFor } from '@/lib/phone-country';
import type { NewRequest, NewRequestBody, SmsText } from '@/lib/contracts/locations';
import { localeForCountry } from '@/lib/owner-language';

const schema = z.object({
  phone: phoneField,
  requesterName: requesterNameField,
  note: ownerNoteField,
  text: z.string(),
  locale: z.string(),
});
/** SMS languages the buyer may pick; '' means the number's country decides. Names are each language's own. */
const LANGUAGES = [
  ['en', 'English'],
  ['es', 'Español'],
  ['id', 'Bahasa Indonesia'],
] as const;
type Values = z.infer<typeof schema>;

/**
 * `/getLocation` (docs/rules.md#routes): a subscriber asks for another number's location: the number, the requester name the owner
 * will see and the SMS text (previewed in the page's language with that name) → `POST /spyContent/phoneLocation`; then a link to the request's map. Quota, subscription
 * and SMS-guard refusals appear as the server words them.
 */
export function NewRequest() {
  const t = useTranslations('Dashboard');
  const tBox = useTranslations('LocateBox');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [texts, setTexts] = useState<SmsText[]>([]);
  const [created, setCreated] = useState<{ id: string; link: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const initialPhone = phoneFromQuery(useSearchParams().get('phone'));
  const {
    register,
    handleSubmit,
    setError,
    control,
    getValues,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    // A buyer sent here from the pay step after signing in continues with the number they typed.
    defaultValues: { phone: initialPhone, requesterName: '', note: '', text: 'standard', locale: '' },
  });
  const { alert, setAlert, report } = useServerErrors(setError, ['phone', 'requesterName', 'note']);
  // National numbers parse against the IP's country, then the locale's (lib/phone-country.ts); formatted as typed.
  const [ipCountry, setIpCountry] = useState<string | null>(null);
  const defaultCountry = phoneCountries(locale, ipCountry)[0] ?? null;
  const phoneInput = usePhoneInput(defaultCountry);
  const chosenLocale = useWatch({ control, name: 'locale' });
  // "From the number's country" previews the language the SMS is sent in: the owner's (their number's country, or the
  // country a national number is read in), not the buyer's page language.
  const language = (chosenLocale || localeForCountry(phoneInput.country ?? defaultCountry)).split('-')[0];
  const chosen = useWatch({ control, name: 'text' });
  const requesterName = useWatch({ control, name: 'requesterName' }).trim();
  const note = useWatch({ control, name: 'note' });

  useEffect(() => {
    api.call('GET /multilingualWord/one/3/phone_text').then(setTexts, () => setTexts([]));
    api.call('GET /other/ipInfo').then(
      (info) => setIpCountry(info.countryCode),
      () => {},
    );
  }, [api]);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const { locale: smsLocale, note: noteText, ...rest } = values;
      const country = await phoneCountryFor(values.phone, locale, ipCountry);
      const body = {
        ...rest,
        // A text and a language the API listed (`GET /multilingualWord/one/3/phone_text`), read back from the form.
        text: rest.text as NewRequestBody['text'],
        ...(noteText.trim() ? { note: noteText } : {}),
        ...(smsLocale ? { locale: smsLocale as NewRequestBody['locale'] } : {}),
        ...(country ? { country } : {}),
      };
      setCreated(await api.call('POST /spyContent/phoneLocation', { body }));
    } catch (error) {
      report(error);
    }
  });

  return (
    <FormCard title={t('getTitle')} lead={t('getLead')}>
      {created ? (
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
          <div>
            <label htmlFor="locale" className="block text-sm font-medium text-slate-800">
              {t('smsLanguage')}
            </label>
            <select id="locale" className="field-input" {...register('locale')}>
              <option value="">{t('languageAuto')}</option>
              {LANGUAGES.map(([code, name]) => (
                <option key={code} value={code} lang={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">{t('smsText')}</legend>
            {texts
              .filter((x) => x.locale === language)
              .map((x) => (
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
          <FormAlert message={alert} />
          <SubmitButton busy={isSubmitting} label={t('send')} busyLabel="…" />
        </form>
      )}
    </FormCard>
  );
}
