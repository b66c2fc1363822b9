'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { OrderView } from '@/lib/api/types';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { cardFormSchema, type CardFormValues } from '@/lib/validation/schemas';
import { TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';

type Phase =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'form'; order: OrderView }
  | { kind: 'declined'; order: OrderView; message: string }
  | { kind: 'paid'; order: OrderView };

const fields = [
  {
    name: 'cardNumber',
    label: 'cardNumber',
    autoComplete: 'cc-number',
    inputMode: 'numeric',
    placeholder: '4242 4242 4242 4242',
  },
  { name: 'expiry', label: 'expiry', autoComplete: 'cc-exp', inputMode: 'numeric', placeholder: 'MM/YY' },
  { name: 'cvc', label: 'cvc', autoComplete: 'cc-csc', inputMode: 'numeric', placeholder: '123' },
  { name: 'zip', label: 'zip', autoComplete: 'postal-code', inputMode: 'text', placeholder: '94107' },
] as const;

/**
 * The sandbox checkout (our own hosted test page, Stripe's test-card semantics): the order summary with the trial
 * price, its 24-hour length and the monthly price beside the pay button; a card form; then the outcome —
 * 'Transaction has been declined…' with RETRY, or 'User created successfully' with Enter Dashboard.
 */
export function SandboxCheckout() {
  const t = useTranslations('Checkout');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [phase, setPhase] = useState<Phase>(code ? { kind: 'loading' } : { kind: 'missing' });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<CardFormValues>({ resolver: zodResolver(cardFormSchema) });

  useEffect(() => {
    if (!code) return;
    api.get<OrderView>(`/portal/order/${encodeURIComponent(code)}`).then(
      (order) => setPhase(order.status === 'paid' ? { kind: 'paid', order } : { kind: 'form', order }),
      () => setPhase({ kind: 'missing' }),
    );
  }, [api, code]);

  if (phase.kind === 'loading')
    return (
      <p aria-busy="true" className="text-slate-600">
        …
      </p>
    );
  if (phase.kind === 'missing') return <p role="alert">{t('orderMissing')}</p>;
  const { order } = phase;

  const onPay = handleSubmit(async (values) => {
    try {
      await api.post(`/portal/order/${encodeURIComponent(order.code)}/sandboxPay`, values);
      setPhase({ kind: 'paid', order });
    } catch (error) {
      setPhase({ kind: 'declined', order, message: (error as Error).message });
    }
  });

  if (phase.kind === 'paid') {
    return (
      <section className="rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold text-green-800">{t('successTitle')}</h1>
        <p className="mt-3 text-slate-700">{t('successText', { email: order.email, phone: order.phone })}</p>
        <a
          href={`${prefixOf(locale)}/dashboard/locations/`}
          className="mt-6 inline-block rounded-lg bg-brand px-6 py-3 font-semibold text-white"
        >
          {t('enterDashboard')}
        </a>
        <a href={`${prefixOf(locale)}/reveal-location/`} className="mt-6 ml-4 inline-block text-brand underline">
          {t('follow')}
        </a>
      </section>
    );
  }

  return (
    <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{t('sandboxBanner')}</p>
      <p className="mt-4 text-slate-700">{t('summary', { phone: order.phone, email: order.email })}</p>
      {phase.kind === 'declined' && (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          <p className="font-semibold">{t('declinedTitle')}</p>
          <p className="text-sm">{phase.message}</p>
        </div>
      )}
      <form noValidate onSubmit={onPay} className="mt-4 grid grid-cols-2 gap-3">
        {fields.map((f) => (
          <TextField
            key={f.name}
            id={f.name}
            label={t(f.label)}
            autoComplete={f.autoComplete}
            inputMode={f.inputMode}
            placeholder={f.placeholder}
            error={errors[f.name]?.message}
            className={f.name === 'cardNumber' ? 'col-span-2' : ''}
            {...register(f.name)}
          />
        ))}
        <p className="col-span-2 text-base font-medium text-slate-900">
          {t('trialLine', { trial: order.amount, monthly: order.monthlyAmount })}
        </p>
        <button
          type="submit"
          disabled={isSubmitting}
          className="col-span-2 rounded-lg bg-brand px-4 py-3 text-base font-semibold text-white disabled:opacity-60"
        >
          {isSubmitting ? t('paying') : phase.kind === 'declined' ? t('retry') : t('pay', { amount: order.amount })}
        </button>
      </form>
    </section>
  );
}
