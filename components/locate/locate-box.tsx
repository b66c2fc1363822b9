'use client';
import { useLocale, useTranslations } from 'next-intl';
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { localePath } from '@/i18n/routing';
import { buyAgainPhone, type AppLocale } from '@/lib/routing/rules';
import type { LocateBoxValues } from '@/lib/validation/schemas';
import { FieldError } from '../ui/field-error';
import { TextField } from '../ui/text-field';
import { useDelayed } from '../ui/use-delayed';
import { usePublicApi } from '../ui/use-public-api';
import { track } from '@/lib/tracking/track';
import { Link } from '@/components/ui/link';
import { phoneCountries, phoneCountryFor } from '@/lib/phone-country';
import { readUserInfo } from '@/lib/user-info';
import { RequesterNameField } from './requester-name-field';
import { usePhoneInput } from './use-phone-input';
import type { LocateBoxForm } from './locate-box-form';

/** The facts and pay step, loaded once a number is checked (not part of the first load). */
const Identified = lazy(() => import('./identified'));

/** The box's react-hook-form, loaded on the visitor's first touch of the box (not part of the first load). */
const FormControl = lazy(() => import('./locate-box-form'));

/**
 * How long a check waits for the visitor's IP country when the first touch of the box was its submit (an autofilled
 * form): past this, a national number is read against the locale's country, as with no IP country at all.
 */
const IP_COUNTRY_WAIT_MS = 1500;

/** Resolves after `ms` milliseconds. */
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The home page's locate box (docs/rules.md#routes, #validation): phone, the requester name the owner will see (2–40
 * characters), e-mail and the terms checkbox, validated with the shared zod
 * schema. A national number is parsed against the visitor's country from `GET /other/ipInfo` (asked at the first touch of the box), then the locale's
 * (es → ES, id → ID, en-PH → PH), the numbering plan choosing between them (lib/phone-country.ts); without either the
 * hint asks for + and the country code at once, and the server's error says to add it. The number is formatted as it
 * is typed, with the detected country's name (flag emoji are not drawn everywhere).
 * Submitting shows the numbering-plan facts from `GET /other/location/info/{phone}` (the real lookup, labelled as
 * such) and, at the same time, asks `GET /portal/user/checkEmail/{email}` whether the e-mail already has an account:
 * then the e-mail field says so with the sign-in link that returns to New request with this number (an order for it
 * would be refused, docs/security.md "Accounts"), unless this browser is signed in as that address. Then 'Number
 * identified' and the pay step (first-order discount, price terms, card or wallet). Server errors appear under the
 * field they concern. Opened by "Buy again", the box starts with that number and the account's e-mail. The form
 * (react-hook-form, ./locate-box-form.tsx) loads on the visitor's first touch of the box
 * (focus, pointer or a submit), not with the page: the fields keep what is typed before, and a submit made before
 * it arrives is made once it has.
 */
export function LocateBox() {
  const t = useTranslations('LocateBox');
  const tApi = useTranslations('Api');
  const tPay = useTranslations('Pay');
  const locale = useLocale() as AppLocale;
  const [ipCountry, setIpCountry] = useState<string | null>(null);
  // National numbers parse against the visitor's IP country, then the locale's (lib/phone-country.ts).
  const defaultCountry = phoneCountries(locale, ipCountry)[0] ?? null;
  const phoneInput = usePhoneInput(defaultCountry);
  const [facts, setFacts] = useState<PhoneInfo | null>(null);
  /** The E.164 number checked when the e-mail turned out to have an account (the sign-in link carries it). */
  const [registeredFor, setRegisteredFor] = useState<string | null>(null);
  // react-hook-form arrives on the first touch of the box (`wanted`); until then the fields are plain inputs that keep
  // what is typed (the form reads it when it registers them), and a submit waits for it (`pendingSubmit`).
  const [wanted, setWanted] = useState(false);
  const [control, setControl] = useState<LocateBoxForm | null>(null);
  const latest = useRef<LocateBoxForm | null>(null);
  const pendingSubmit = useRef(false);
  const onForm = useCallback((next: LocateBoxForm) => {
    latest.current = next;
    setControl(next);
  }, []);
  // The phone field's value for the formatter: the form's once it has arrived, the input's before.
  const readPhone = useCallback(
    (input: HTMLInputElement) => latest.current?.form.getValues('phone') ?? input.value,
    [],
  );
  const writePhone = useCallback((value: string, input: HTMLInputElement) => {
    if (latest.current) latest.current.form.setValue('phone', value);
    else input.value = value;
  }, []);
  const errors: LocateBoxForm['errors'] = control?.errors ?? {};
  const isSubmitting = control?.isSubmitting ?? false;
  const want = () => setWanted(true);
  /** The field's props: react-hook-form's `register` once loaded, its name and `onChange` before. */
  const field = (name: keyof LocateBoxValues, options?: { onChange: (e: { target: HTMLInputElement }) => unknown }) =>
    control ? control.form.register(name, options) : { name, ...options };
  const get = usePublicApi();
  const checking = useDelayed(isSubmitting);

  // The visitor's IP country, asked on the first touch of the box with the form: a visitor who only reads makes no
  // call, and the page does no work after it has loaded; calls go by `fetch`, without the axios client
  // (bench/lighthouse-report.md). One call per page view; a check made before it answers waits for it
  // (IP_COUNTRY_WAIT_MS at most).
  const ipAsked = useRef<Promise<string | null> | null>(null);
  const askIpCountry = () =>
    (ipAsked.current ??= get('GET /other/ipInfo').then(
      (info) => info.countryCode ?? null,
      () => null,
    ));
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    void askIpCountry().then((country) => {
      if (!cancelled && country) setIpCountry(country);
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at the first touch
  }, [wanted]);

  // "Buy again" (buyAgainPath): the number it names and the signed-in account's e-mail fill the box, which would
  // otherwise open empty for a buyer who just had them. Written into the plain inputs, which the form reads when it
  // registers them; anything the visitor already typed is kept.
  useEffect(() => {
    const phone = buyAgainPhone(location.search);
    if (phone === null) return;
    const filled = { phone, email: readUserInfo()?.email ?? '' };
    for (const [id, value] of Object.entries(filled)) {
      const input = document.getElementById(id) as HTMLInputElement | null;
      if (input && !input.value && value) input.value = value;
    }
  }, []);

  const check = async ({ phone, email }: LocateBoxValues) => {
    const { setError } = latest.current!.form;
    track('locate_submitted', 'Lead');
    setRegisteredFor(null);
    try {
      const fromIp = ipCountry ?? (await Promise.race([askIpCountry(), wait(IP_COUNTRY_WAIT_MS).then(() => null)]));
      const country = await phoneCountryFor(phone, locale, fromIp);
      // Signed in as this address: the order is attached to the account, nothing to refuse.
      const own = readUserInfo()?.email?.toLowerCase() === email.trim().toLowerCase();
      const [info, account] = await Promise.all([
        get('GET /other/location/info/{phone}', { params: { phone }, query: country ? { country } : {} }),
        own
          ? null
          : get('GET /portal/user/checkEmail/{email}', { params: { email: email.trim() } })
              // A refused check (rate limit, network) is not a verdict: the order itself checks again.
              .catch(() => null),
      ]);
      if (account?.registered) {
        setRegisteredFor(info.e164);
        setError('email', { message: tApi('emailRegistered') }, { shouldFocus: true });
        return;
      }
      track('number_identified');
      setFacts(info);
    } catch (error) {
      setError('phone', { message: (error as Error).message });
    }
  };
  const onCheck = (event?: FormEvent) => {
    if (control) return control.form.handleSubmit(check)(event);
    event?.preventDefault();
    pendingSubmit.current = true;
    want();
  };
  // A submit made before the form arrived is made once it has (its fields registered with what they hold).
  useEffect(() => {
    if (!control || !pendingSubmit.current) return;
    pendingSubmit.current = false;
    void control.form.handleSubmit(check)();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the form arrives
  }, [control]);
  const getValues = (name: 'email' | 'requesterName') => control?.form.getValues(name) ?? '';

  return (
    <section
      aria-labelledby="locate-title"
      // Once the number is identified, from lg up: two columns (./identified.tsx), the box as wide as the page.
      className={`rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6 ${facts ? 'lg:grid lg:grid-cols-2 lg:content-start lg:gap-x-8' : ''}`}
      data-identified={facts ? '' : undefined}
    >
      {/* On a phone the page's h1 right above says what the box is for: its title is for screen readers only there,
          so that Check number fits above the cookie bar on a 360×740 screen (e2e/screens.spec.ts). */}
      <h2 id="locate-title" className="sr-only text-xl font-semibold sm:not-sr-only lg:col-span-2">
        {t('title')}
      </h2>
      <form
        noValidate
        onSubmit={onCheck}
        onFocus={want}
        onPointerDown={want}
        className="space-y-3 sm:mt-4 sm:space-y-4 lg:col-start-1 lg:row-start-2"
      >
        {wanted && (
          <Suspense fallback={null}>
            <FormControl onChange={onForm} />
          </Suspense>
        )}
        <TextField
          id="phone"
          label={t('phoneLabel')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('phonePlaceholder')}
          readOnly={!!facts}
          error={errors.phone}
          hint={phoneInput.hint}
          // eslint-disable-next-line react-hooks/refs -- readPhone and writePhone read the ref in the change handler only
          {...field('phone', phoneInput.registerOptions(readPhone, writePhone))}
        />
        <RequesterNameField readOnly={!!facts} error={errors.requesterName} {...field('requesterName')} />
        <TextField
          id="email"
          label={t('emailLabel')}
          type="email"
          autoComplete="email"
          placeholder={t('emailPlaceholder')}
          readOnly={!!facts}
          error={errors.email}
          hint={
            registeredFor && errors.email ? (
              <Link
                href={localePath(locale, `/login/?redirect=getLocation&phone=${encodeURIComponent(registeredFor)}`)}
                className="text-sm font-semibold text-brand underline"
              >
                {tPay('signInToContinue')}
              </Link>
            ) : undefined
          }
          {...field('email')}
        />
        <div>
          <label className="flex min-h-11 items-start gap-3 py-1 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 h-5 w-5 shrink-0"
              disabled={!!facts}
              aria-describedby="terms-error"
              {...field('terms')}
            />
            <span>
              {t('termsBefore')}{' '}
              <Link className="text-brand underline" href={localePath(locale, '/terms-of-use/')}>
                {t('terms')}
              </Link>{' '}
              {t('and')}{' '}
              <Link className="text-brand underline" href={localePath(locale, '/privacy-policy/')}>
                {t('privacy')}
              </Link>
              .
            </span>
          </label>
          <FieldError id="terms-error" message={errors.terms} />
        </div>
        {!facts && (
          <button
            type="submit"
            data-btn-id="locate_check"
            disabled={isSubmitting}
            className="w-full rounded-lg bg-brand px-4 py-3 font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
          >
            {checking ? t('checking') : t('submit')}
          </button>
        )}
      </form>
      {facts && (
        <div className="mt-4 space-y-4 lg:contents">
          <Suspense fallback={<p aria-busy="true">…</p>}>
            <Identified facts={facts} email={getValues('email')} requesterName={getValues('requesterName')} />
          </Suspense>
          <button
            type="button"
            onClick={() => setFacts(null)}
            className="min-h-11 w-full text-sm text-slate-600 underline lg:col-start-1 lg:row-start-4 lg:mt-4 lg:self-start"
          >
            {t('edit')}
          </button>
        </div>
      )}
    </section>
  );
}
