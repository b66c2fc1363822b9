'use client';
import type { BillingOrder } from '@/lib/contracts/billing';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { formatDay } from '@/lib/intl-format';
import { cardBrandName } from '@/lib/card-brand';
import { type AppLocale } from '@/lib/routing/rules';
import { LocaleLink } from '@/components/ui/locale-link';

/**
 * The billing page's Orders section: a row per order (newest first, as the server lists them), "none" when there
 * are none, and under a non-empty list the link to the consent records. `refused`: codes of the orders whose refund
 * was refused, which offer no refund button; `onRefund(code)` asks for an order's refund.
 */
export function OrdersSection({
  orders,
  refused,
  onRefund,
}: {
  orders: BillingOrder[];
  refused: ReadonlySet<string>;
  onRefund: (code: string) => void;
}) {
  const t = useTranslations('Billing');
  return (
    <div>
      <h2 className="text-lg font-semibold">{t('orders')}</h2>
      {orders.length === 0 && <p className="mt-2 text-slate-600">{t('none')}</p>}
      <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
        {orders.map((o) => (
          <OrderRow key={o.code} order={o} refundable={!refused.has(o.code)} onRefund={onRefund} />
        ))}
      </ul>
      {orders.length > 0 && (
        <p className="mt-3 text-sm text-slate-600" data-testid="consent-records">
          {t('consentRecordsText')}{' '}
          <LocaleLink path="/dashboard/billing/consent/" className="text-brand underline">
            {t('consentRecordsOpen')}
          </LocaleLink>
        </p>
      )}
    </div>
  );
}

/**
 * One order: its short reference and number, the day, the amount with the payment method, its status (or what a
 * withdrawal refunded), a refund button while it is paid, not withdrawn and `refundable`, and why a refunded one was.
 */
function OrderRow({
  order: o,
  refundable,
  onRefund,
}: {
  order: BillingOrder;
  refundable: boolean;
  onRefund: (code: string) => void;
}) {
  const t = useTranslations('Billing');
  const locale = useLocale() as AppLocale;
  const brand = cardBrandName(o.cardBrand);
  // The wallet, the card's scheme and last four digits (or only the digits for an unknown scheme), or nothing.
  const paidWith =
    o.method === 'wallet'
      ? t('wallet')
      : o.card
        ? brand
          ? `${brand} •••• ${o.card}`
          : t('card', { last4: o.card })
        : '';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 p-4 text-sm" data-testid="order">
      <span>
        <span className="font-semibold" data-testid="order-reference">
          {o.reference}
        </span>{' '}
        · {formatPhone(o.phone)}
      </span>
      <span>{formatDay(o.createdAt, locale)}</span>
      <span>
        {o.amount} · {paidWith}
      </span>
      <span className="font-semibold" data-testid="order-status">
        {o.withdrawn
          ? o.withdrawn.refundMinor > 0
            ? t('withdrawn', { refund: o.withdrawn.refund })
            : t('withdrawnNone')
          : t(`orderStatus.${o.status}` as 'orderStatus.paid')}
      </span>
      {o.status === 'paid' && !o.withdrawn && refundable && (
        <button type="button" onClick={() => onRefund(o.code)} className="min-h-11 text-brand underline">
          {t('refund')}
        </button>
      )}
      {o.status === 'refunded' && o.refundReason && (
        <p className="w-full text-slate-700" data-testid="refund-reason">
          {t(`refundReason.${o.refundReason}`)}
        </p>
      )}
    </li>
  );
}
