'use client';
import type { BillingView } from '@/lib/contracts/billing';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import { formatDateTime, formatDay } from '@/lib/intl-format';
import { cardBrandName } from '@/lib/card-brand';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { BuyAgainLink } from './buy-again-link';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useApi } from '../ui/use-api';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';

/** A message over the lists; `refused`: a refund was refused, so the way to support is shown beside the reason. */
type Notice = { text: string; refused?: boolean };
type Ask = { kind: 'cancel'; date: string } | { kind: 'refund'; code: string; amount: string; wallet: boolean } | null;

/**
 * `/dashboard/billing` (docs/rules.md#routes "My subscriptions" → Billing): each subscription's plan, status, next billing date or
 * end date, the withdrawal function ("Withdraw from contract here" → `/withdraw`, which shows the confirmation step at
 * once when signed in; offered only while an order's contract can be withdrawn from, `withdrawable`), and Cancel (confirm dialog → `PUT /admin/user/cancelSubscribe`, effective at the next billing date); the
 * orders with their payment method, and a refund request for each paid one (`POST /admin/order/refundDetail`, then
 * `POST /admin/order/refund` after confirming). Refusals and results show the server's localized message; a refused
 * refund says why (outside the window, a location was shared — then what a withdrawal still refunds, from the same
 * quote, services/billing/refunds.ts `refusalOf` — already refunded) and links to the contact page, and the order's refund
 * button goes. A withdrawn order reads "Withdrawn — refunded US$0.50" (its `withdrawn` record) and offers no refund. Each
 * order is named by its short reference; a refunded one says why (refunded automatically because nothing was shared
 * in the trial, a withdrawal, or a refund asked for) and what that ended. When every subscription has ended, "Buy
 * again" leads to the home page's locate box.
 */
export function BillingView() {
  const t = useTranslations('Billing');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [data, setData] = useState<BillingView | null>(null);
  const [error, setError] = useState<{ message: string; signedOut: boolean } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [ask, setAsk] = useState<Ask>(null);
  /** Orders whose refund was refused: their refund button goes (the refusal says what is left to do). */
  const [refused, setRefused] = useState<ReadonlySet<string>>(() => new Set());
  const refuse = (code: string) => setRefused((before) => new Set(before).add(code));

  const load = useCallback(
    () =>
      api
        .call('GET /admin/order/status')
        .then(setData, (e: ApiClientError) => setError({ message: e.message, signedOut: e.code === SESSION_INVALID })),
    [api],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const live = data?.subscriptions.find((s) => s.status !== 'canceled' && !s.cancelAt);
  // Every subscription has ended (refunded, cancelled and run out, or never bought): the way on is to buy again.
  const ended = !!data && !data.subscriptions.some((s) => s.status !== 'canceled');

  const askRefund = async (code: string) => {
    setNotice(null);
    try {
      const info = await api.call('POST /admin/order/refundDetail', { body: { code } });
      if (info.eligible) setAsk({ kind: 'refund', code, amount: info.amount, wallet: info.method === 'wallet' });
      else {
        setNotice({ text: info.message, refused: true });
        refuse(code);
      }
    } catch (e) {
      setNotice({ text: (e as Error).message });
    }
  };

  const onConfirm = async (confirmed: boolean) => {
    const current = ask;
    setAsk(null);
    if (!confirmed || !current) return;
    try {
      if (current.kind === 'cancel') {
        const { cancelAt } = await api.call('PUT /admin/user/cancelSubscribe');
        setNotice({ text: t('cancelDone', { date: formatDateTime(cancelAt[0] ?? current.date, locale) }) });
      } else {
        const body = await api.call('POST /admin/order/refund', { body: { code: current.code }, whole: true });
        setNotice({ text: body.msg });
      }
    } catch (e) {
      const err = e as ApiClientError;
      const refusal = current.kind === 'refund' && typeof err.detail?.reason === 'string';
      setNotice({ text: err.message, refused: refusal });
      if (refusal && current.kind === 'refund') refuse(current.code);
    }
    await load();
  };

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {error && (error.signedOut ? <SignInPrompt redirect="billing" /> : <p role="alert">{error.message}</p>)}
      {notice && (
        <div role="status" className="rounded-lg bg-slate-100 p-3 text-slate-800" data-testid="billing-notice">
          <p>{notice.text}</p>
          {notice.refused && (
            <p className="mt-2 text-sm">
              {t('refundHelp')}{' '}
              <Link
                href={localePath(locale, '/contact-us/')}
                className="font-semibold text-brand underline"
                data-testid="refund-support"
              >
                {t('contactSupport')}
              </Link>
            </p>
          )}
        </div>
      )}
      {data && (
        <>
          <div>
            <h2 className="text-lg font-semibold">{t('subscriptions')}</h2>
            <ul className="mt-2 space-y-2">
              {data.subscriptions.map((s, i) => (
                <li
                  key={i}
                  className="space-y-1 rounded-xl bg-white p-4 ring-1 ring-slate-200"
                  data-testid="subscription"
                >
                  <p>
                    <span className="font-semibold" data-testid="subscription-status">
                      {t(`status.${s.status}`)}
                    </span>{' '}
                    · {t('plan', { monthly: s.monthlyAmount, count: s.geolocations })}
                  </p>
                  {s.status === 'past_due' && s.nextBillingAt && (
                    <p className="text-sm text-red-800">
                      {t('pastDue', { date: formatDateTime(s.nextBillingAt, locale) })}
                    </p>
                  )}
                  {s.status !== 'past_due' && s.nextBillingAt && (
                    <p className="text-sm text-slate-700">
                      {t('nextBilling', { date: formatDateTime(s.nextBillingAt, locale) })}
                    </p>
                  )}
                  {s.cancelAt && s.status !== 'canceled' && (
                    <p className="text-sm text-slate-700">
                      {t('endsOn', { date: formatDateTime(s.cancelAt, locale) })}
                    </p>
                  )}
                </li>
              ))}
            </ul>
            {ended && (
              <div className="mt-3 space-y-2" data-testid="subscription-ended">
                <p className="text-sm text-slate-700">{t('endedText')}</p>
                <BuyAgainLink label={t('buyAgain')} phone={data.orders[0] ? formatPhone(data.orders[0].phone) : null} />
              </div>
            )}
            {live && (
              <div className="mt-3 flex flex-wrap items-center gap-4">
                <button
                  type="button"
                  onClick={() => setAsk({ kind: 'cancel', date: live.currentPeriodEnd })}
                  className="min-h-11 rounded-lg border border-red-300 px-4 font-semibold text-red-800"
                >
                  {t('cancel')}
                </button>
                <Link
                  href={localePath(locale, '/cancel-subscription/')}
                  className="inline-flex min-h-6 items-center text-sm text-brand underline"
                >
                  {t('cancelPage')}
                </Link>
              </div>
            )}
            {data.orders.some((o) => o.withdrawable) && (
              <div className="mt-4 space-y-1" data-testid="withdraw">
                <Link
                  href={localePath(locale, '/withdraw/')}
                  className="inline-flex min-h-11 items-center font-semibold text-brand underline"
                >
                  {t('withdraw')}
                </Link>
                <p className="text-sm text-slate-600">{t('withdrawHint')}</p>
              </div>
            )}
          </div>
          <div>
            <h2 className="text-lg font-semibold">{t('orders')}</h2>
            {data.orders.length === 0 && <p className="mt-2 text-slate-600">{t('none')}</p>}
            <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
              {data.orders.map((o) => (
                <li
                  key={o.code}
                  className="flex flex-wrap items-center justify-between gap-2 p-4 text-sm"
                  data-testid="order"
                >
                  <span>
                    <span className="font-semibold" data-testid="order-reference">
                      {o.reference}
                    </span>{' '}
                    · {formatPhone(o.phone)}
                  </span>
                  <span>{formatDay(o.createdAt, locale)}</span>
                  <span>
                    {o.amount} ·{' '}
                    {o.method === 'wallet'
                      ? t('wallet')
                      : o.card
                        ? cardBrandName(o.cardBrand)
                          ? `${cardBrandName(o.cardBrand)} •••• ${o.card}`
                          : t('card', { last4: o.card })
                        : ''}
                  </span>
                  <span className="font-semibold" data-testid="order-status">
                    {o.withdrawn
                      ? o.withdrawn.refundMinor > 0
                        ? t('withdrawn', { refund: o.withdrawn.refund })
                        : t('withdrawnNone')
                      : t(`orderStatus.${o.status}` as 'orderStatus.paid')}
                  </span>
                  {o.status === 'paid' && !o.withdrawn && !refused.has(o.code) && (
                    <button type="button" onClick={() => askRefund(o.code)} className="min-h-11 text-brand underline">
                      {t('refund')}
                    </button>
                  )}
                  {o.status === 'refunded' && o.refundReason && (
                    <p className="w-full text-slate-700" data-testid="refund-reason">
                      {t(`refundReason.${o.refundReason}`)}
                    </p>
                  )}
                </li>
              ))}
            </ul>
            {data.orders.length > 0 && (
              <p className="mt-3 text-sm text-slate-600" data-testid="consent-records">
                {t('consentRecordsText')}{' '}
                <Link href={localePath(locale, '/dashboard/billing/consent/')} className="text-brand underline">
                  {t('consentRecordsOpen')}
                </Link>
              </p>
            )}
          </div>
        </>
      )}
      <ConfirmDialog
        open={!!ask}
        message={
          ask?.kind === 'cancel'
            ? t('cancelConfirm', { date: formatDateTime(ask.date, locale) })
            : ask
              ? t(ask.wallet ? 'refundConfirmWallet' : 'refundConfirm', { amount: ask.amount })
              : ''
        }
        confirmLabel={ask?.kind === 'refund' ? t('refundAction') : t('cancel')}
        cancelLabel={t('keep')}
        onClose={onConfirm}
      />
    </section>
  );
}
