'use client';
import type { BillingSubscription, BillingView } from '@/lib/contracts/billing';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { formatDateTime } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';
import { BuyAgainLink } from './buy-again-link';
import { LocaleLink } from '@/components/ui/locale-link';

/**
 * The billing page's Subscriptions section: a row per subscription; when every one has ended (`ended`), "Buy again"
 * with the number of the newest order; for the `live` subscription, Cancel (`onCancel` with its current period's end,
 * ISO) and the link to the cancellation page; while an order's contract can be withdrawn from, the link to
 * `/withdraw`.
 */
export function SubscriptionsSection({
  data,
  live,
  ended,
  onCancel,
}: {
  data: BillingView;
  live: BillingSubscription | undefined;
  ended: boolean;
  onCancel: (date: string) => void;
}) {
  const t = useTranslations('Billing');
  return (
    <div>
      <h2 className="text-lg font-semibold">{t('subscriptions')}</h2>
      <ul className="mt-2 space-y-2">
        {data.subscriptions.map((s, i) => (
          <SubscriptionRow key={i} subscription={s} />
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
            onClick={() => onCancel(live.currentPeriodEnd)}
            className="min-h-11 rounded-lg border border-red-300 px-4 font-semibold text-red-800"
          >
            {t('cancel')}
          </button>
          <LocaleLink
            path="/cancel-subscription/"
            className="inline-flex min-h-6 items-center text-sm text-brand underline"
          >
            {t('cancelPage')}
          </LocaleLink>
        </div>
      )}
      {data.orders.some((o) => o.withdrawable) && (
        <div className="mt-4 space-y-1" data-testid="withdraw">
          <LocaleLink
            path="/withdraw/"
            className="inline-flex min-h-11 items-center font-semibold text-brand underline"
          >
            {t('withdraw')}
          </LocaleLink>
          <p className="text-sm text-slate-600">{t('withdrawHint')}</p>
        </div>
      )}
    </div>
  );
}

/** One subscription: its status and plan, when it is billed next (or that it is past due), and its end if cancelled. */
function SubscriptionRow({ subscription: s }: { subscription: BillingSubscription }) {
  const t = useTranslations('Billing');
  const locale = useLocale() as AppLocale;
  return (
    <li className="space-y-1 rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="subscription">
      <p>
        <span className="font-semibold" data-testid="subscription-status">
          {t(`status.${s.status}`)}
        </span>{' '}
        · {t('plan', { monthly: s.monthlyAmount, count: s.geolocations })}
      </p>
      {s.status === 'past_due' && s.nextBillingAt && (
        <p className="text-sm text-red-800">{t('pastDue', { date: formatDateTime(s.nextBillingAt, locale) })}</p>
      )}
      {s.status !== 'past_due' && s.nextBillingAt && (
        <p className="text-sm text-slate-700">{t('nextBilling', { date: formatDateTime(s.nextBillingAt, locale) })}</p>
      )}
      {s.cancelAt && s.status !== 'canceled' && (
        <p className="text-sm text-slate-700">{t('endsOn', { date: formatDateTime(s.cancelAt, locale) })}</p>
      )}
    </li>
  );
}
