'use client';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { StripeEmbeddedCheckout } from '@stripe/stripe-js';
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import type { OrderView } from '@/lib/contracts/orders';
import { useApi } from '../ui/use-api';

/**
 * Stripe's Embedded Checkout for a Stripe order, mounted in our own checkout page
 * (https://docs.stripe.com/payments/accept-a-payment?ui=embedded-form): the buyer pays, with a card or a wallet
 * Stripe offers on the device, without leaving the site, and Stripe sends the browser to the status page
 * (`/paystatus/?order=…&session_id=…`) when paid. The client secret comes from
 * `GET /portal/order/{code}/embeddedCheckout` (lib/contracts/orders.ts `embeddedCheckoutSchema`); Stripe.js is loaded
 * from js.stripe.com only when this mounts (`@stripe/stripe-js/pure`), which the checkout pages' Content-Security-Policy
 * allows (lib/security-headers.ts).
 *
 * States: loading (says so); ready (Stripe's form); `closed` — the API answered 409, the order is paid or its session
 * expired — calls `onClosed` (the page shows the order's status); failed (Stripe.js or the API unreachable: says
 * nothing was charged, with Try again).
 */
/**
 * The turn of the page's embedded checkout: Stripe allows one per page, so a new one is created only once the one
 * before it is destroyed (an effect run twice, as React's StrictMode does, or a quick Try again).
 */
let lastCheckout: Promise<void> = Promise.resolve();

export function StripeCheckout({ order, onClosed }: { order: OrderView; onClosed: () => void }) {
  const t = useTranslations('Checkout');
  const api = useApi();
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let active = true;
    let checkout: StripeEmbeddedCheckout | undefined;
    let release = () => {};
    const previous = lastCheckout;
    lastCheckout = new Promise<void>((resolve) => (release = resolve));
    (async () => {
      try {
        await previous;
        if (!active) return release();
        const { clientSecret, publishableKey } = await api.call('GET /portal/order/{code}/embeddedCheckout', {
          params: { code: order.code },
        });
        const stripe = await loadStripe(publishableKey);
        if (!stripe) throw new Error('Stripe.js is not available in this browser');
        const mounted = await stripe.createEmbeddedCheckoutPage({ clientSecret });
        // Left meanwhile: this one is destroyed at once, and the next may be created.
        if (!active || !box.current) {
          mounted.destroy();
          return release();
        }
        checkout = mounted;
        mounted.mount(box.current);
        setState('ready');
      } catch (error) {
        release();
        if (!active) return;
        if ((error as ApiClientError).status === 409) onClosed();
        else setState('failed');
      }
    })();
    return () => {
      active = false;
      if (checkout) {
        checkout.destroy();
        release();
      }
    };
  }, [api, order.code, attempt, onClosed]);

  return (
    <div className="mt-4">
      <p className="text-base font-medium text-slate-900">
        {t('trialLine', { trial: order.amount, monthly: order.monthlyAmount })}
      </p>
      <p className="mt-1 text-sm text-slate-600">{t('stripeNote')}</p>
      {state === 'loading' && (
        <p aria-busy="true" className="mt-4 text-slate-600">
          {t('stripeLoading')}
        </p>
      )}
      {state === 'failed' && (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-red-800">
          <p className="text-sm">{t('stripeFailed')}</p>
          <button
            type="button"
            onClick={() => {
              setState('loading');
              setAttempt((n) => n + 1);
            }}
            className="mt-3 min-h-11 rounded-lg bg-brand px-4 py-2 font-semibold text-white"
          >
            {t('retry')}
          </button>
        </div>
      )}
      <div ref={box} data-testid="stripe-checkout" className="mt-4" />
    </div>
  );
}
