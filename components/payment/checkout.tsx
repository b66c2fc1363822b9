'use client';
import { formatPhone } from '@/lib/phone-format';
import { useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';
import { LocaleLink } from '@/components/ui/locale-link';
import { CardForm } from './card-form';
import { OrderFacts } from './order-facts';
import { NoOrder } from './no-order';
import { useCheckout } from './use-checkout';

/** Stripe's embedded form, loaded only for a Stripe order: the sandbox page never downloads it. */
const StripeCheckout = dynamic(() => import('./stripe-checkout').then((m) => m.StripeCheckout), { ssr: false });

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
  const { phase, form, working, toStatus, onPay, on3ds } = useCheckout();

  if (phase.kind === 'loading')
    return (
      <p aria-busy="true" className="text-slate-600">
        …
      </p>
    );
  if (phase.kind === 'missing') return <NoOrder />;
  const { order } = phase;

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
        <OrderCanceled message={phase.message} />
      ) : phase.kind === '3ds' ? (
        <ThreeDsChallenge working={working} onAnswer={on3ds} />
      ) : (
        <CardForm form={form} order={order} declined={phase.kind === 'declined' ? phase.message : null} onPay={onPay} />
      )}
      <OrderFacts order={order} />
    </section>
  );
}

/** The order cancelled at payment (insufficient funds): the server's `message` and Start again, to the home page. */
function OrderCanceled({ message }: { message: string }) {
  const t = useTranslations('Checkout');
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
      <p className="font-semibold">{t('canceledTitle')}</p>
      <p className="text-sm">{message}</p>
      <LocaleLink path="/" className="mt-3 inline-block font-semibold text-brand underline">
        {t('startAgain')}
      </LocaleLink>
    </div>
  );
}

/**
 * The sandbox's 3-D Secure challenge: what a bank would ask, and buttons to complete or fail it (`onAnswer(true)`
 * or `onAnswer(false)`), disabled while `working`.
 */
function ThreeDsChallenge({ working, onAnswer }: { working: boolean; onAnswer: (approve: boolean) => void }) {
  const t = useTranslations('Checkout');
  return (
    <div className="mt-4 rounded-lg border border-slate-300 p-4" data-testid="three-ds">
      <h2 className="font-semibold">{t('threeDsTitle')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('threeDsText')}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <button
          type="button"
          disabled={working}
          onClick={() => onAnswer(true)}
          className="rounded-lg bg-brand px-4 py-2 font-semibold text-white disabled:opacity-60"
        >
          {working ? t('working') : t('threeDsComplete')}
        </button>
        <button
          type="button"
          disabled={working}
          onClick={() => onAnswer(false)}
          className="rounded-lg border border-slate-300 px-4 py-2"
        >
          {t('threeDsFail')}
        </button>
      </div>
    </div>
  );
}
