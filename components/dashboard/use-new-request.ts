'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod/mini';
import { type AppLocale } from '@/lib/routing/rules';
import { ownerNoteField, phoneField, phoneFromQuery, requesterNameField } from '@/lib/validation/schemas';
import { useServerErrors } from '../account/use-server-errors';
import { useApi } from '../ui/use-api';
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

/** New request's form values: the number, requester name, note, SMS text id and SMS language ('' for automatic). */
export type NewRequestValues = z.infer<typeof schema>;

/**
 * New request's form and calls. Loads the SMS texts (`GET /multilingualWord/one/3/phone_text`) and the visitor's IP
 * country (`GET /other/ipInfo`), which with the page's locale decides the country national numbers are read in; the
 * number may come from the page's `?phone=`. Returns the react-hook-form `form`, `phoneInput` (the phone field's
 * formatter and hint), `texts` (the SMS texts in the language the SMS will be sent in: the one chosen, else that of the
 * number's country), the watched `chosen` text id, `requesterName` (trimmed) and `note`, `alert` (a form-level server
 * refusal), `created` (the request `POST /spyContent/phoneLocation` answered, null before) and `onSubmit`.
 */
export function useNewRequest() {
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [texts, setTexts] = useState<SmsText[]>([]);
  const [created, setCreated] = useState<NewRequest | null>(null);
  const initialPhone = phoneFromQuery(useSearchParams().get('phone'));
  const form = useForm<NewRequestValues>({
    resolver: zodResolver(schema),
    // A buyer sent here from the pay step after signing in continues with the number they typed.
    defaultValues: { phone: initialPhone, requesterName: '', note: '', text: 'standard', locale: '' },
  });
  const { control, handleSubmit, setError } = form;
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

  const inLanguage = texts.filter((x) => x.locale === language);
  return { form, phoneInput, texts: inLanguage, chosen, requesterName, note, alert, created, onSubmit };
}
