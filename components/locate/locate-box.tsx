'use client';
import { useLocale, useTranslations } from 'next-intl';
import { Suspense, lazy } from 'react';
import { phoneCountries } from '@/lib/phone-country';
import type { AppLocale } from '@/lib/routing/rules';
import { useDelayed } from '../ui/use-delayed';
import { LocateBoxFields } from './locate-box-fields';
import { useBuyAgainPrefill, useLazyLocateForm, useSubmitWhenReady } from './use-lazy-locate-form';
import { useIpCountry, useNumberCheck } from './use-number-check';
import { usePhoneInput } from './use-phone-input';

/** The facts and pay step, loaded once a number is checked (not part of the first load). */
const Identified = lazy(() => import('./identified'));

/** The box's react-hook-form, loaded on the visitor's first touch of the box (not part of the first load). */
const FormControl = lazy(() => import('./locate-box-form'));

/**
 * The home page's locate box (docs/rules.md#routes, #validation): phone, the requester name the owner will see (2–40
 * characters), e-mail and the terms checkbox, validated with the shared zod schema. A national number is parsed against
 * the visitor's country from `GET /other/ipInfo` (asked at the first touch of the box), then the locale's (es → ES,
 * id → ID, en-PH → PH), the numbering plan choosing between them (lib/phone-country.ts); without either the hint asks
 * for + and the country code at once, and the server's error says to add it. The number is formatted as it is typed,
 * with the detected country's name (flag emoji are not drawn everywhere). Submitting shows the numbering-plan facts
 * from `GET /other/location/info/{phone}` (the real lookup, labelled as such) and, at the same time, asks
 * `GET /portal/user/checkEmail/{email}` whether the e-mail already has an account: then the e-mail field says so with
 * the sign-in link that returns to New request with this number (an order for it would be refused, docs/security.md
 * "Accounts"), unless this browser is signed in as that address. Then 'Number identified' and the pay step (first-order
 * discount, price terms, card or wallet). Server errors appear under the field they concern. Opened by "Buy again", the
 * box starts with that number and the account's e-mail. The form (react-hook-form, ./locate-box-form.tsx) loads on the
 * visitor's first touch of the box (focus, pointer or a submit), not with the page: the fields keep what is typed
 * before, and a submit made before it arrives is made once it has.
 */
export function LocateBox() {
  const t = useTranslations('LocateBox');
  const locale = useLocale() as AppLocale;
  const box = useLazyLocateForm();
  const ip = useIpCountry(box.wanted);
  // National numbers parse against the visitor's IP country, then the locale's (lib/phone-country.ts).
  const phoneInput = usePhoneInput(phoneCountries(locale, ip.ipCountry)[0] ?? null);
  const { facts, setFacts, registeredFor, check } = useNumberCheck(ip);
  useBuyAgainPrefill();
  const onCheck = useSubmitWhenReady(box, check);
  const checking = useDelayed(box.isSubmitting);
  const getValues = (name: 'email' | 'requesterName') => box.control?.form.getValues(name) ?? '';

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
        onFocus={box.want}
        onPointerDown={box.want}
        className="space-y-3 sm:mt-4 sm:space-y-4 lg:col-start-1 lg:row-start-2"
      >
        {box.wanted && (
          <Suspense fallback={null}>
            <FormControl onChange={box.onForm} />
          </Suspense>
        )}
        <LocateBoxFields
          field={box.field}
          errors={box.errors}
          locked={!!facts}
          phone={{ hint: phoneInput.hint, options: phoneInput.registerOptions(box.readPhone, box.writePhone) }}
          registeredFor={registeredFor}
        />
        {!facts && (
          <button
            type="submit"
            data-btn-id="locate_check"
            disabled={box.isSubmitting}
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
