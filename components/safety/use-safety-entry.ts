'use client';
import { useLocale } from 'next-intl';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { phoneCountries, phoneCountryFor } from '@/lib/phone-country';
import type { AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';

/**
 * An example mobile number of `country` (ISO 3166-1 alpha-2) in its national format, from libphonenumber's own
 * examples (`libphonenumber-js/examples.mobile.json`, loaded on first use), e.g. `0905 123 4567` for PH; null when the
 * country has none.
 */
async function exampleNumber(country: string): Promise<string | null> {
  const [{ getExampleNumber }, { default: examples }] = await Promise.all([
    import('libphonenumber-js/min'),
    import('libphonenumber-js/examples.mobile.json'),
  ]);
  const number = getExampleNumber(country as Parameters<typeof getExampleNumber>[0], examples);
  return number?.formatNational() ?? null;
}

/** Loads the page again without its query (the consent code), replacing the history entry. */
const reopen = () => window.location.replace(window.location.pathname);

/**
 * The safety centre's way in (SafetyEntry), as state and calls:
 * - `linkState`: 'entering' while a consent `code` is sent once at mount (`POST /safety/session/consent`; the page is
 *   then loaded again without the code), 'invalid' once that link was refused, else null;
 * - `phone` and `otp` (digits only) with their setters, `sent` once the SMS code was asked for, `busy` while a step
 *   runs, `error` its message;
 * - `country`, the country a national number is read in (the visitor's IP country, asked once by `askIpCountry` at
 *   the first touch of the field, then the locale's), and `example`, an example number of it (null while none);
 * - `step`, the form's submit: asks for the SMS code (`POST /safety/code`), then opens the session with it
 *   (`POST /safety/session`) and loads the page again. With `number` (E.164) the code goes to that number, no field.
 * Each call sends the page's locale, so the SMS is in the page's language.
 */
export function useSafetyEntry(code: string | null, number: string | null) {
  const api = useApi();
  const locale = useLocale() as AppLocale;
  const [linkState, setLinkState] = useState<'entering' | 'invalid' | null>(code ? 'entering' : null);
  const [phone, setPhone] = useState('');
  const [otp, setOtp] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ipCountry, setIpCountry] = useState<string | null>(null);
  const [example, setExample] = useState<string | null>(null);
  const tried = useRef(false);
  const ipAsked = useRef<Promise<string | null> | null>(null);
  const country = phoneCountries(locale, ipCountry)[0] ?? null;

  useEffect(() => {
    if (!code || tried.current) return;
    tried.current = true;
    api
      .call('POST /safety/session/consent', { body: { code } })
      .then(reopen)
      .catch(() => setLinkState('invalid'));
  }, [api, code]);

  useEffect(() => {
    if (number || !country) return;
    let cancelled = false;
    void exampleNumber(country)
      .then((text) => !cancelled && setExample(text))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [country, number]);

  /** The visitor's IP country, asked once at the first touch of the number field. */
  const askIpCountry = () =>
    (ipAsked.current ??= api.call('GET /other/ipInfo').then(
      (info) => {
        const found = info.countryCode ?? null;
        if (found) setIpCountry(found);
        return found;
      },
      () => null,
    ));

  const step = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const target = number
        ? { phone: number }
        : { phone, country: (await phoneCountryFor(phone, locale, await askIpCountry())) ?? undefined };
      if (!sent) {
        await api.call('POST /safety/code', { body: { ...target, locale } });
        setSent(true);
      } else {
        await api.call('POST /safety/session', { body: { ...target, code: otp, locale } });
        reopen();
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return { linkState, phone, setPhone, otp, setOtp, sent, busy, error, country, example, askIpCountry, step };
}
