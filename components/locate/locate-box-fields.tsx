'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { localePath } from '@/i18n/routing';
import { Link } from '@/components/ui/link';
import type { AppLocale } from '@/lib/routing/rules';
import { FieldError } from '../ui/field-error';
import { TextField } from '../ui/text-field';
import { RequesterNameField } from './requester-name-field';
import type { LocateBoxForm } from './locate-box-form';
import type { LocateField } from './use-lazy-locate-form';

/**
 * The locate box's fields, in order: phone (formatted as it is typed: `phone.options`, with `phone.hint`), the
 * requester name, the e-mail (with the sign-in link that returns to New request with `registeredFor`, an E.164
 * number, when the check found an account for it) and the terms checkbox. `field` gives each field's props, `errors`
 * their messages; `locked` makes them read-only once the number is identified.
 */
export function LocateBoxFields({
  field,
  errors,
  locked,
  phone,
  registeredFor,
}: {
  field: LocateField;
  errors: LocateBoxForm['errors'];
  locked: boolean;
  phone: { hint: ReactNode; options: Parameters<LocateField>[1] };
  registeredFor: string | null;
}) {
  const t = useTranslations('LocateBox');
  const tPay = useTranslations('Pay');
  const locale = useLocale() as AppLocale;
  return (
    <>
      <TextField
        id="phone"
        label={t('phoneLabel')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder={t('phonePlaceholder')}
        readOnly={locked}
        error={errors.phone}
        hint={phone.hint}
        {...field('phone', phone.options)}
      />
      <RequesterNameField readOnly={locked} error={errors.requesterName} {...field('requesterName')} />
      <TextField
        id="email"
        label={t('emailLabel')}
        type="email"
        autoComplete="email"
        placeholder={t('emailPlaceholder')}
        readOnly={locked}
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
      <TermsCheckbox disabled={locked} error={errors.terms} input={field('terms')} />
    </>
  );
}

/**
 * The terms checkbox: "I accept the terms of use and the privacy policy" with links to both pages, and its error
 * (`terms-error`). `input` is the checkbox's props from the form.
 */
function TermsCheckbox({
  disabled,
  error,
  input,
}: {
  disabled: boolean;
  error?: string;
  input: ReturnType<LocateField>;
}) {
  const t = useTranslations('LocateBox');
  const locale = useLocale() as AppLocale;
  return (
    <div>
      <label className="flex min-h-11 items-start gap-3 py-1 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0"
          disabled={disabled}
          aria-describedby="terms-error"
          {...input}
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
      <FieldError id="terms-error" message={error} />
    </div>
  );
}
