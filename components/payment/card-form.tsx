'use client';
import { useTranslations } from 'next-intl';
import type { FormEventHandler } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { OrderView } from '@/lib/contracts/orders';
import type { CardFormValues } from '@/lib/validation/schemas';
import { formatCardNumber, formatExpiry } from '@/lib/card-format';
import { TextField } from '../ui/text-field';

/**
 * The card fields with their autofill tokens (HTML's `cc-number`, `cc-exp`, `cc-csc`, `postal-code`, so a saved card
 * fills in one tap) and number-pad keyboards; `format` turns what a number pad can type into the field's shape.
 */
const fields = [
  {
    name: 'cardNumber',
    label: 'cardNumber',
    autoComplete: 'cc-number',
    inputMode: 'numeric',
    placeholder: '4242 4242 4242 4242',
    format: (value: string) => formatCardNumber(value).value,
  },
  { name: 'expiry', label: 'expiry', autoComplete: 'cc-exp', inputMode: 'numeric', format: formatExpiry },
  { name: 'cvc', label: 'cvc', autoComplete: 'cc-csc', inputMode: 'numeric', placeholder: '123', maxLength: 4 },
  { name: 'zip', label: 'zip', autoComplete: 'postal-code', inputMode: 'text', placeholder: '94107', maxLength: 15 },
] as const;

/**
 * The sandbox checkout's card step: after a decline its message (`declined`, as the server worded it) over the form;
 * the card fields (the number shows its scheme as typed), the trial and monthly price line, and the pay button
 * (RETRY after a decline). `form` is the page's card form; `onPay` its submit handler.
 */
export function CardForm({
  form,
  order,
  declined,
  onPay,
}: {
  form: UseFormReturn<CardFormValues>;
  order: OrderView;
  declined: string | null;
  onPay: FormEventHandler<HTMLFormElement>;
}) {
  const t = useTranslations('Checkout');
  const {
    register,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const brand = formatCardNumber(useWatch({ control, name: 'cardNumber' }) ?? '').brand;
  return (
    <>
      {declined !== null && (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          <p className="font-semibold">{t('declinedTitle')}</p>
          <p className="text-sm">{declined}</p>
        </div>
      )}
      <form noValidate onSubmit={onPay} className="mt-4 grid grid-cols-2 gap-3">
        {fields.map((f) => {
          const field = register(f.name);
          const format = 'format' in f ? f.format : undefined;
          return (
            <TextField
              key={f.name}
              id={f.name}
              label={t(f.label)}
              autoComplete={f.autoComplete}
              inputMode={f.inputMode}
              placeholder={f.name === 'expiry' ? t('expiryPlaceholder') : f.placeholder}
              maxLength={'maxLength' in f ? f.maxLength : undefined}
              hint={f.name === 'cardNumber' && brand ? <span data-testid="card-brand">{brand}</span> : undefined}
              error={errors[f.name]?.message}
              className={f.name === 'cardNumber' ? 'col-span-2' : ''}
              {...field}
              onChange={(event) => {
                if (format) event.target.value = format(event.target.value);
                return field.onChange(event);
              }}
            />
          );
        })}
        <p className="col-span-2 text-base font-medium text-slate-900">
          {t('trialLine', { trial: order.amount, monthly: order.monthlyAmount })}
        </p>
        <button
          type="submit"
          disabled={isSubmitting}
          className="col-span-2 rounded-lg bg-brand px-4 py-3 text-base font-semibold text-white disabled:opacity-60"
        >
          {isSubmitting ? t('paying') : declined !== null ? t('retry') : t('pay', { amount: order.amount })}
        </button>
      </form>
    </>
  );
}
