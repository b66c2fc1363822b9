'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import { formatDate } from '@/lib/format';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';

type Billing = {
  orders: { code: string; phone: string; status: string; amount: string; createdAt: string }[];
  subscriptions: { status: string; currentPeriodEnd: string; cancelAt: string | null }[];
};

/** `/dashboard/billing` (SPEC §2): the subscriber's subscriptions and orders from `GET /admin/order/status`. */
export function BillingView() {
  const t = useTranslations('Billing');
  const tDash = useTranslations('Dashboard');
  const tAuth = useTranslations('Auth');
  const prefix = prefixOf(useLocale() as AppLocale);
  const api = useApi();
  const [data, setData] = useState<Billing | null>(null);
  const [error, setError] = useState<{ message: string; signedOut: boolean } | null>(null);

  useEffect(() => {
    api
      .get<Billing>('/admin/order/status')
      .then(setData, (e: ApiClientError) => setError({ message: e.message, signedOut: e.code === SESSION_INVALID }));
  }, [api]);

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {error && (
        <div role="alert" className="space-y-2">
          <p>{error.signedOut ? tDash('signIn') : error.message}</p>
          <a href={`${prefix}/login/?redirect=billing`} className="text-brand underline">
            {tAuth('signIn')}
          </a>
        </div>
      )}
      {data && (
        <>
          <div>
            <h2 className="text-lg font-semibold">{t('subscriptions')}</h2>
            <ul className="mt-2 space-y-2">
              {data.subscriptions.map((s, i) => (
                <li key={i} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="subscription">
                  <span className="font-semibold">{t(`status.${s.status}` as 'status.active')}</span> ·{' '}
                  {t('periodEnd', { date: formatDate(s.currentPeriodEnd, 'Y-m-d H:M') })}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className="text-lg font-semibold">{t('orders')}</h2>
            {data.orders.length === 0 && <p className="mt-2 text-slate-600">{t('none')}</p>}
            <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
              {data.orders.map((o) => (
                <li key={o.code} className="flex flex-wrap justify-between gap-2 p-4 text-sm" data-testid="order">
                  <span className="font-mono">{o.phone}</span>
                  <span>{formatDate(o.createdAt, 'Y-m-d')}</span>
                  <span>{o.amount}</span>
                  <span className="font-semibold">{t(`orderStatus.${o.status}` as 'orderStatus.paid')}</span>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </section>
  );
}
