'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import type { OrderView } from '@/lib/contracts/orders';
import { localePath } from '@/i18n/routing';
import { useApi } from '../ui/use-api';
import { OrderFacts } from './order-facts';
import { NoOrder } from './no-order';

/**
 * The sandbox wallet (`/checkout/wallet?order=CODE`): stands in for a PayPal-style wallet the payer leaves for and
 * returns from. Approve pays the order (`POST …/sandboxWallet approve=true`); Cancel cancels it. Either way the payer
 * returns to `/paystatus`, which shows the outcome.
 */
export function SandboxWallet() {
  const t = useTranslations('Checkout');
  const locale = useLocale();
  const router = useRouter();
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [order, setOrder] = useState<OrderView | null | 'missing'>(code ? null : 'missing');
  const [working, setWorking] = useState(false);
  const statusPage = localePath(locale, `/paystatus/?order=${encodeURIComponent(code)}`);

  useEffect(() => {
    if (!code) return;
    api.call('GET /portal/order/{code}', { params: { code } }).then(
      (o) => (o.status === 'pending' ? setOrder(o) : router.replace(statusPage)),
      () => setOrder('missing'),
    );
  }, [api, code, router, statusPage]);

  if (order === 'missing') return <NoOrder />;
  if (!order)
    return (
      <p aria-busy="true" className="text-slate-600">
        …
      </p>
    );

  const answer = async (approve: boolean) => {
    setWorking(true);
    // A cancel answers 402 by design; the status page reads the outcome either way.
    await api
      .call('POST /portal/order/{code}/sandboxWallet', { params: { code: order.code }, body: { approve } })
      .catch(() => {});
    router.push(statusPage);
  };

  return (
    <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('walletTitle')}</h1>
      <p className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">{t('walletBanner')}</p>
      <p className="mt-4 text-base font-medium text-slate-900">
        {t('walletText', { merchant: order.productName, amount: order.amount, monthly: order.monthlyAmount })}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <button
          type="button"
          disabled={working}
          onClick={() => answer(true)}
          className="rounded-lg bg-brand px-5 py-3 font-semibold text-white disabled:opacity-60"
        >
          {working ? t('working') : t('walletApprove')}
        </button>
        <button
          type="button"
          disabled={working}
          onClick={() => answer(false)}
          className="rounded-lg border border-slate-300 px-5 py-3"
        >
          {t('walletCancel')}
        </button>
      </div>
      <OrderFacts order={order} />
    </section>
  );
}
