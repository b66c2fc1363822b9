'use client';
import { formatPhone } from '@/lib/phone-format';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter, useSearchParams } from 'next/navigation';
import dynamic from 'next/dynamic';
import { useCallback, useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { ApiClientError } from '@/lib/api/client';
import type { OrderView, SandboxPaid } from '@/lib/contracts/orders';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { cardFormSchema, type CardFormValues } from '@/lib/validation/schemas';
import { formatCardNumber, formatExpiry } from '@/lib/card-format';
import { TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';
import { OrderFacts } from './order-facts';
import { NoOrder } from './no-order';
import { Link } from '@/components/ui/link';

/** Stripe's embedded form, loaded only for a Stripe order: the sandbox page never downloads it. */
const StripeCheckout = dynamic(() => import('./stripe-checkout').then((m) => m.StripeCheckout), { ssr: false });

type Phase =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'form'; order: OrderView }
  | { kind: 'stripe'; order: OrderView }
  | { kind: '3ds'; order: OrderView }
  | { kind: 'declined'; order: OrderView; message: string }
  | { kind: 'canceled'; order: OrderView; message: string };

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
 * The checkout page (`/checkout?order=CODE`) of a pending order: the order with the trial price, its 24 hours and the
 * monthly price beside the payment, and the card-statement descriptor. An order already settled goes to `/paystatus`.
 * - A Stripe order: Stripe's Embedded Checkout on this page (stripe-checkout.tsx), so the buyer stays on the site.
 * - A sandbox order: our own test card form with Stripe's test-card semantics. Outcomes: paid → `/paystatus`;
 *   declined → 'Transaction has been declined…' with RETRY; insufficient funds → the order is cancelled
 *   (docs/rules.md#states) with Start again; 3-D Secure card → a challenge to complete or fail.
 */
export function Checkout() {
  const t = useTranslations('Checkout');
  const locale = useLocale() as AppLocale;
  const router = useRouter();
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [phase, setPhase] = useState<Phase>(code ? { kind: 'loading' } : { kind: 'missing' });
  const [working, setWorking] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<CardFormValues>({ resolver: zodResolver(cardFormSchema) });
  const brand = formatCardNumber(useWatch({ control, name: 'cardNumber' }) ?? '').brand;
  const statusPage = localePath(locale, `/paystatus/?order=${encodeURIComponent(code)}`);

  useEffect(() => {
    if (!code) return;
    api.call('GET /portal/order/{code}', { params: { code } }).then(
      (order) => {
        if (order.status !== 'pending' && order.status !== 'failed') router.replace(statusPage);
        else if (order.provider === 'stripe') setPhase({ kind: 'stripe', order });
        else setPhase(order.pendingAction === '3ds' ? { kind: '3ds', order } : { kind: 'form', order });
      },
      () => setPhase({ kind: 'missing' }),
    );
  }, [api, code, router, statusPage]);
  const toStatus = useCallback(() => router.replace(statusPage), [router, statusPage]);

  if (phase.kind === 'loading')
    return (
      <p aria-busy="true" className="text-slate-600">
        …
      </p>
    );
  if (phase.kind === 'missing') return <NoOrder />;
  const { order } = phase;
  const params = { code: order.code };

  /** Applies a pay endpoint's answer: paid → status page; 3-D Secure → challenge; refusals → their message. */
  const settle = async (call: Promise<SandboxPaid>) => {
    try {
      const result = await call;
      if (result.status === 'requires_action') setPhase({ kind: '3ds', order });
      else router.push(statusPage);
    } catch (error) {
      const e = error as ApiClientError;
      const canceled = e.detail?.status === 'canceled';
      setPhase({ kind: canceled ? 'canceled' : 'declined', order, message: e.message });
    }
  };

  const onPay = handleSubmit((values) =>
    settle(api.call('POST /portal/order/{code}/sandboxPay', { params, body: values })),
  );
  const on3ds = async (approve: boolean) => {
    setWorking(true);
    await settle(api.call('POST /portal/order/{code}/sandbox3ds', { params, body: { approve } }));
    setWorking(false);
  };

  return (
    <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {order.provider === 'sandbox' && (
        <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{t('sandboxBanner')}</p>
      )}
      <p className="mt-4 break-words text-slate-700">
        {t('summary', { phone: formatPhone(order.phone), email: order.email })}
      </p>
      {phase.kind === 'stripe' ? (
        <StripeCheckout order={order} onClosed={toStatus} />
      ) : phase.kind === 'canceled' ? (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          <p className="font-semibold">{t('canceledTitle')}</p>
          <p className="text-sm">{phase.message}</p>
          <Link href={localePath(locale, '/')} className="mt-3 inline-block font-semibold text-brand underline">
            {t('startAgain')}
          </Link>
        </div>
      ) : phase.kind === '3ds' ? (
        <div className="mt-4 rounded-lg border border-slate-300 p-4" data-testid="three-ds">
          <h2 className="font-semibold">{t('threeDsTitle')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('threeDsText')}</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <button
              type="button"
              disabled={working}
              onClick={() => on3ds(true)}
              className="rounded-lg bg-brand px-4 py-2 font-semibold text-white disabled:opacity-60"
            >
              {working ? t('working') : t('threeDsComplete')}
            </button>
            <button
              type="button"
              disabled={working}
              onClick={() => on3ds(false)}
              className="rounded-lg border border-slate-300 px-4 py-2"
            >
              {t('threeDsFail')}
            </button>
          </div>
        </div>
      ) : (
        <>
          {phase.kind === 'declined' && (
            <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
              <p className="font-semibold">{t('declinedTitle')}</p>
              <p className="text-sm">{phase.message}</p>
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
              {isSubmitting ? t('paying') : phase.kind === 'declined' ? t('retry') : t('pay', { amount: order.amount })}
            </button>
          </form>
        </>
      )}
      <OrderFacts order={order} />
    </section>
  );
}
