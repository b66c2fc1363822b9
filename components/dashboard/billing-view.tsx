'use client';
import { useLocale, useTranslations } from 'next-intl';
import { formatDateTime } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { LocaleLink } from '@/components/ui/locale-link';
import { OrdersSection } from './billing-orders';
import { SubscriptionsSection } from './billing-subscriptions';
import { useBilling, type Ask, type Notice } from './use-billing';

/**
 * `/dashboard/billing` (docs/rules.md#routes "My subscriptions" → Billing): each subscription's plan, status, next
 * billing date or end date, the withdrawal function ("Withdraw from contract here" → `/withdraw`, which shows the
 * confirmation step at once when signed in; offered only while an order's contract can be withdrawn from,
 * `withdrawable`), and Cancel (confirm dialog → `PUT /admin/user/cancelSubscribe`, effective at the next billing
 * date); the orders with their payment method, and a refund request for each paid one (`POST
 * /admin/order/refundDetail`, then `POST /admin/order/refund` after confirming). Refusals and results show the
 * server's localized message; a refused refund says why (outside the window, a location was shared — then what a
 * withdrawal still refunds, from the same quote, services/billing/refunds.ts `refusalOf` — already refunded) and
 * links to the contact page, and the order's refund button goes. A withdrawn order reads "Withdrawn — refunded
 * US$0.50" (its `withdrawn` record) and offers no refund. Each order is named by its short reference; a refunded one
 * says why (refunded automatically because nothing was shared in the trial, a withdrawal, or a refund asked for) and
 * what that ended. When every subscription has ended, "Buy again" leads to the home page's locate box.
 */
export function BillingView() {
  const t = useTranslations('Billing');
  const { data, error, notice, ask, refused, live, ended, askRefund, askCancel, onConfirm } = useBilling();

  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {error && (error.signedOut ? <SignInPrompt redirect="billing" /> : <p role="alert">{error.message}</p>)}
      {notice && <BillingNotice notice={notice} />}
      {data && (
        <>
          <SubscriptionsSection data={data} live={live} ended={ended} onCancel={askCancel} />
          <OrdersSection orders={data.orders} refused={refused} onRefund={askRefund} />
        </>
      )}
      <BillingConfirm ask={ask} onClose={onConfirm} />
    </section>
  );
}

/** The notice over the lists (a result or a refusal, in the server's words); a refused refund adds a support link. */
function BillingNotice({ notice }: { notice: Notice }) {
  const t = useTranslations('Billing');
  return (
    <div role="status" className="rounded-lg bg-slate-100 p-3 text-slate-800" data-testid="billing-notice">
      <p>{notice.text}</p>
      {notice.refused && (
        <p className="mt-2 text-sm">
          {t('refundHelp')}{' '}
          <LocaleLink path="/contact-us/" className="font-semibold text-brand underline" data-testid="refund-support">
            {t('contactSupport')}
          </LocaleLink>
        </p>
      )}
    </div>
  );
}

/**
 * The confirm dialog of a cancellation (effective at `date`) or of a refund (the amount, worded for a wallet or a
 * card), open while `ask` holds one; `onClose(confirmed)` when answered or dismissed.
 */
function BillingConfirm({ ask, onClose }: { ask: Ask; onClose: (confirmed: boolean) => void }) {
  const t = useTranslations('Billing');
  const locale = useLocale() as AppLocale;
  return (
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
      onClose={onClose}
    />
  );
}
