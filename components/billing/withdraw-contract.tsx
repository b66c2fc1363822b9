'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { ContractView } from '@/lib/contracts/withdraw';
import { formatDateTime } from '@/lib/intl-format';
import { formatPhone } from '@/lib/phone-format';
import { type AppLocale } from '@/lib/routing/rules';
import { LocaleLink } from '../ui/locale-link';
import { DangerButton } from '../ui/form-alert';

/**
 * One contract on the withdrawal page: what was bought (product, order reference, payment date, prices, number) and
 * its subscription, then by its state: open — the deadline, what a withdrawal refunds and "Confirm withdrawal" when
 * `usable` (`onConfirm` with the order's code; `busy` while a confirmation is under way); the period ended — the way
 * to cancel instead (`/cancel-subscription` for the signed-in `account`, else `/cancel`); already withdrawn or
 * refunded — saying so.
 */
export function WithdrawContract({
  contract: c,
  account,
  usable,
  busy,
  onConfirm,
}: {
  contract: ContractView;
  account: boolean;
  usable: boolean;
  busy: boolean;
  onConfirm: (code: string) => void;
}) {
  const t = useTranslations('Withdraw');
  const locale = useLocale() as AppLocale;
  const date = (iso: string) => formatDateTime(iso, locale);
  return (
    <article className="space-y-2 rounded-xl bg-slate-50 p-4 text-sm" data-testid="withdraw-contract">
      <h2 className="text-base font-semibold">{t('contractTitle')}</h2>
      <p>
        {t('contract', {
          product: c.product,
          reference: c.reference,
          date: date(c.paidAt),
          trial: c.trial,
          monthly: c.monthly,
          phone: formatPhone(c.phone),
        })}
      </p>
      {c.subscription && (
        <p>
          {c.subscription.status === 'trialing'
            ? t('subTrialing', { date: date(c.subscription.currentPeriodEnd) })
            : c.subscription.status === 'active'
              ? t('subActive', { date: date(c.subscription.currentPeriodEnd) })
              : c.subscription.status === 'past_due'
                ? t('subPastDue')
                : t('subCanceled')}
        </p>
      )}
      {c.state === 'open' && (
        <>
          <p>{t('deadline', { date: date(c.deadline) })}</p>
          <p className="font-medium text-slate-900" data-testid="withdraw-what">
            {c.rule === 'full'
              ? t('whatFull', { refund: c.refund })
              : c.refundMinor > 0
                ? t('whatProRata', { refund: c.refund, paid: c.paid })
                : t('whatProRataNone', { paid: c.paid })}
          </p>
          {c.refundMinor > 0 && <p className="text-slate-600">{t('refundTime')}</p>}
          {usable && (
            <DangerButton busy={busy} onClick={() => onConfirm(c.code)} label={t('confirm')} busyLabel={t('working')} />
          )}
        </>
      )}
      {c.state === 'period_ended' && (
        <>
          <p>{t('periodEnded', { date: date(c.deadline) })}</p>
          <LocaleLink
            path={account ? '/cancel-subscription/' : '/cancel/'}
            className="inline-flex min-h-11 items-center font-semibold text-brand underline"
          >
            {t('cancelInstead')}
          </LocaleLink>
        </>
      )}
      {c.state === 'withdrawn' && c.withdrawal && (
        <p>{t('alreadyWithdrawn', { date: date(c.withdrawal.at), refund: c.withdrawal.refund })}</p>
      )}
      {c.state === 'refunded' && <p>{t('refunded')}</p>}
    </article>
  );
}
