'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import type { OrderView } from '@/lib/api/types';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';
import { OrderFacts } from './order-facts';
import { Link } from '@/components/ui/link';
import { trackAd } from '@/lib/tracking/track';

/**
 * The ad conversion `Purchase` for a paid order, once per order in this browser tab (a reload or the poll seeing
 * `paid` again sends nothing more). The `paid` funnel event itself is written by the server at fulfilment.
 */
function purchased(code: string): void {
  const key = `purchase:${code}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
  } catch {}
  trackAd('Purchase');
}

type View = { order: OrderView; signedIn: boolean } | 'loading' | 'missing';

const button = 'inline-block rounded-lg bg-brand px-5 py-3 font-semibold text-white';
const secondary = 'inline-block rounded-lg border border-slate-300 px-5 py-3';

/**
 * `/paystatus?order=CODE` and `/pay-success` (SPEC §2, §4): shows what the provider confirmed, read from
 * `GET /portal/user/checkRegister/{code}` every 3 s while pending — it never decides the outcome itself.
 * Outcomes: pending ('Checking Payment Results', Refresh, "I have completed the payment", Back to Homepage; the result
 * is also e-mailed); paid and signed in ('User created successfully', Enter Dashboard, Log in); paid but not signed in
 * here (authorization invalid: asks to log in); failed (the decline message and RETRY); cancelled; refunded.
 */
export function PayStatus() {
  const t = useTranslations('PayStatus');
  const tApi = useTranslations('Api');
  const prefix = prefixOf(useLocale() as AppLocale);
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [view, setView] = useState<View>(code ? 'loading' : 'missing');
  const [tick, setTick] = useState(0);

  const step = useCallback(
    async (active: () => boolean) => {
      void tick; // a manual refresh restarts the poll
      if (!code) return false; // no order named: 'missing' is already shown
      try {
        const order = await api.get<OrderView>(`/portal/user/checkRegister/${encodeURIComponent(code)}`);
        const signedIn =
          order.status === 'paid' &&
          (await api.get('/admin/userSession/current').then(
            () => true,
            () => false,
          ));
        if (order.status === 'paid') purchased(order.code);
        if (active()) setView({ order, signedIn });
        return order.status === 'pending' || order.status === 'created';
      } catch {
        if (active()) setView('missing');
        return false;
      }
    },
    [api, code, tick],
  );
  usePolling(step);

  if (view === 'loading')
    return (
      <p aria-busy="true" className="text-slate-600">
        {t('loading')}
      </p>
    );
  if (view === 'missing')
    return (
      <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold">{t('title')}</h1>
        <p role="alert" className="mt-3">
          {t('missing')}
        </p>
      </section>
    );
  const { order, signedIn } = view;
  const home = `${prefix}/`;
  const login = `${prefix}/login/`;

  return (
    <section
      className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
      data-status={order.status}
    >
      {(order.status === 'pending' || order.status === 'created') && (
        <>
          <h1 className="text-2xl font-bold">{t('pendingTitle')}</h1>
          <p className="mt-3 text-slate-700" aria-live="polite">
            {t('pendingText')}
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <button type="button" className={button} onClick={() => setTick((n) => n + 1)}>
              {t('refresh')}
            </button>
            <button type="button" className={secondary} onClick={() => setTick((n) => n + 1)}>
              {t('completed')}
            </button>
            <Link href={home} className={secondary}>
              {t('home')}
            </Link>
          </div>
        </>
      )}
      {order.status === 'paid' && signedIn && (
        <>
          <h1 className="text-2xl font-bold text-green-800">{t('successTitle')}</h1>
          <p className="mt-3 text-slate-700">
            {t('successText', { email: order.email, phone: formatPhone(order.phone) })}
          </p>
          {order.smsStatus === 'failed' ? (
            <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="sms-refused">
              {t('smsRefused')}
            </p>
          ) : (
            <p className="mt-3 text-slate-700">{t('smsSent', { phone: formatPhone(order.phone) })}</p>
          )}
          <div className="mt-6 flex flex-wrap gap-3">
            <Link href={`${prefix}/dashboard/locations/`} className={button}>
              {t('enterDashboard')}
            </Link>
            <Link href={login} className={secondary}>
              {t('login')}
            </Link>
          </div>
        </>
      )}
      {order.status === 'paid' && !signedIn && (
        <>
          <h1 className="text-2xl font-bold text-green-800">{t('authTitle')}</h1>
          <p className="mt-3 text-slate-700">{t('authText', { email: order.email })}</p>
          <Link href={login} className={`mt-6 ${button}`}>
            {t('login')}
          </Link>
        </>
      )}
      {order.status === 'failed' && (
        <div role="alert">
          <h1 className="text-2xl font-bold text-red-800">{t('failedTitle')}</h1>
          <p className="mt-3 text-slate-700">{tApi('declined')}</p>
          <Link href={`${prefix}/checkout/?order=${encodeURIComponent(order.code)}`} className={`mt-6 ${button}`}>
            {t('retry')}
          </Link>
        </div>
      )}
      {order.status === 'canceled' && (
        <>
          <h1 className="text-2xl font-bold">{t('canceledTitle')}</h1>
          <p className="mt-3 text-slate-700">{t('canceledText')}</p>
          <Link href={home} className={`mt-6 ${button}`}>
            {t('startAgain')}
          </Link>
        </>
      )}
      {order.status === 'refunded' && <h1 className="text-2xl font-bold">{t('refundedTitle')}</h1>}
      <p className="mt-6 text-sm text-slate-600">
        {t('summary', { amount: order.amount, monthly: order.monthlyAmount })}
      </p>
      <OrderFacts order={order} />
    </section>
  );
}
