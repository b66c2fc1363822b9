'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { regionName } from '@/lib/intl-format';
import { phoneCountries, phoneCountryFor } from '@/lib/phone-country';
import type { AppLocale } from '@/lib/routing/rules';
import { SubmitButton } from '../ui/form-alert';
import { FIELD_KINDS, TextField } from '../ui/text-field';
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

/**
 * How the owner gets into the safety centre (server/api/routes/safety.ts):
 * - with `code`, the consent code of a consent page's "All requests for this number" link: sent once at mount
 *   (`POST /safety/session/consent`); then the page is loaded again without the code, replacing the history entry, so
 *   the code leaves the address bar and the history;
 * - with `number` (E.164; the page opened from a consent link, which shows one requester's requests only): one button
 *   sends a code by SMS to that number, then the code opens the whole centre;
 * - otherwise, or when that link no longer works: the number, a one-time code by SMS (`POST /safety/code`, the same
 *   answer whether or not the number is known) and the code (`POST /safety/session`). A national number is read as
 *   the home page's locate box reads it: in the visitor's IP country (`GET /other/ipInfo`, asked at the first touch of
 *   the field), then the locale's (lib/phone-country.ts); the hint gives an example number of that country
 *   (libphonenumber's), or asks for + and the country code when none is known.
 * Sends the page's locale, so the SMS is in the page's language. Needs the `Safety` messages; `product` names the
 * service.
 */
export function SafetyEntry({
  code,
  product,
  number = null,
}: {
  code: string | null;
  product: string;
  number?: string | null;
}) {
  const t = useTranslations('Safety');
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

  const reopen = () => window.location.replace(window.location.pathname);

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

  if (linkState === 'entering')
    return (
      <p role="status" className="mt-4" aria-busy="true">
        {t('entering')}
      </p>
    );
  const hint =
    country && example ? t('phoneHint', { country: regionName(country, locale), example }) : t('phoneHintIntl');
  const sendLabel = number ? t('sendCodeHere') : t('sendCode');
  const form = (
    <form onSubmit={step} className="mt-4 space-y-4" noValidate>
      {!number && (
        <TextField
          id="safety-phone"
          label={t('phone')}
          hint={hint}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          value={phone}
          readOnly={sent}
          onFocus={() => void askIpCountry()}
          onChange={(e) => setPhone(e.target.value)}
        />
      )}
      {sent && (
        <div>
          <p role="status" className="mb-3 text-slate-800">
            {number ? t('codeSentHere') : t('codeSent')}
          </p>
          <TextField
            id="safety-code"
            label={t('code')}
            {...FIELD_KINDS.code}
            pattern="[0-9]{6}"
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value.replace(/\D/g, ''))}
          />
        </div>
      )}
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      <SubmitButton busy={busy} label={sent ? t('open') : sendLabel} busyLabel={sent ? t('open') : sendLabel} />
    </form>
  );
  if (number) return <div data-testid="link-code">{form}</div>;
  return (
    <section className="mt-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200" data-testid="safety-entry">
      {linkState === 'invalid' && (
        <p role="alert" className="mb-4 text-amber-900">
          {t('linkInvalid')}
        </p>
      )}
      <h2 className="text-lg font-semibold">{t('entryTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('entryIntro', { product })}</p>
      {form}
    </section>
  );
}
