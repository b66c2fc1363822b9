'use client';
import type { BillingView } from '@/lib/contracts/billing';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import { formatDateTime } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';

/** A message over the lists; `refused`: a refund was refused, so the way to support is shown beside the reason. */
export type Notice = { text: string; refused?: boolean };

/**
 * What the confirm dialog asks: cancelling the subscription (`date`: the current period's end, ISO) or refunding an
 * order (`code`; `amount`: the refund as formatted by the server; `wallet`: paid by wallet), or nothing.
 */
export type Ask =
  { kind: 'cancel'; date: string } | { kind: 'refund'; code: string; amount: string; wallet: boolean } | null;

/**
 * The billing page's state and calls: the view (`GET /admin/order/status`, read again after every confirmed action),
 * a load error (`signedOut` when the session is invalid), the notice over the lists, the open question of the
 * confirm dialog, and the orders whose refund was refused. Also the live subscription (the one Cancel applies to)
 * and whether every subscription has ended. `askRefund(code)` asks `POST /admin/order/refundDetail` and opens the
 * dialog or shows the refusal; `askCancel(date)` opens it for a cancellation; `onConfirm(confirmed)` closes it and,
 * when confirmed, cancels (`PUT /admin/user/cancelSubscribe`) or refunds (`POST /admin/order/refund`).
 */
export function useBilling() {
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
  const askCancel = (date: string) => setAsk({ kind: 'cancel', date });

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

  return { data, error, notice, ask, refused, live, ended, askRefund, askCancel, onConfirm };
}
