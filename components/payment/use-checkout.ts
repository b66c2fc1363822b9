'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale } from 'next-intl';
import { useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ApiClientError } from '@/lib/api/client';
import type { OrderView, SandboxPaid } from '@/lib/contracts/orders';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { cardFormSchema, type CardFormValues } from '@/lib/validation/schemas';
import { useApi } from '../ui/use-api';

/**
 * Where the checkout page is: reading the order, no such order, the sandbox card form, Stripe's embedded form, a
 * 3-D Secure challenge, or the form again after a decline, or the order cancelled (with the server's message).
 */
export type Phase =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'form'; order: OrderView }
  | { kind: 'stripe'; order: OrderView }
  | { kind: '3ds'; order: OrderView }
  | { kind: 'declined'; order: OrderView; message: string }
  | { kind: 'canceled'; order: OrderView; message: string };

/**
 * The checkout page's state and calls for the order named by `?order=`: reads it (`GET /portal/order/{code}`) and
 * sends one already settled to `/paystatus`; `form` is the sandbox card form (kept while the challenge shows, so a
 * decline after it finds the card as typed). `onPay` posts the card (`POST /portal/order/{code}/sandboxPay`),
 * `on3ds(approve)` answers the challenge (`…/sandbox3ds`, `working` meanwhile); either goes to the status page when
 * paid, to the challenge, or to the decline or cancellation with the server's message. `toStatus` replaces the
 * page with the status page (when Stripe's form closes).
 */
export function useCheckout() {
  const locale = useLocale() as AppLocale;
  const router = useRouter();
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [phase, setPhase] = useState<Phase>(code ? { kind: 'loading' } : { kind: 'missing' });
  const [working, setWorking] = useState(false);
  const form = useForm<CardFormValues>({ resolver: zodResolver(cardFormSchema) });
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

  /** Applies a pay endpoint's answer: paid → status page; 3-D Secure → challenge; refusals → their message. */
  const settle = async (order: OrderView, call: Promise<SandboxPaid>) => {
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

  const onPay = form.handleSubmit(async (values) => {
    if (!('order' in phase)) return;
    const params = { code: phase.order.code };
    await settle(phase.order, api.call('POST /portal/order/{code}/sandboxPay', { params, body: values }));
  });
  const on3ds = async (approve: boolean) => {
    if (!('order' in phase)) return;
    const params = { code: phase.order.code };
    setWorking(true);
    await settle(phase.order, api.call('POST /portal/order/{code}/sandbox3ds', { params, body: { approve } }));
    setWorking(false);
  };

  return { phase, form, working, toStatus, onPay, on3ds };
}
