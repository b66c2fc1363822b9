'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import type { OrderView } from '@/lib/contracts/orders';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { BuyAgainLink } from '../dashboard/buy-again-link';
import { OrderFacts } from './order-facts';
import { NoOrder } from './no-order';
import { cardBrandName } from '@/lib/card-brand';
import { formatDay } from '@/lib/intl-format';
import { Link } from '@/components/ui/link';
import { LocaleLink } from '@/components/ui/locale-link';
import { usePayStatus } from './use-pay-status';

const button = 'inline-flex min-h-11 items-center rounded-lg bg-brand px-5 py-3 font-semibold text-white';
const secondary = 'inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-5 py-3';

/**
 * `/paystatus?order=CODE` and `/pay-success` (docs/rules.md#routes, #states): shows what the provider confirmed, read
 * from `GET /portal/user/checkRegister/{code}` every 3 s while pending — it never decides the outcome itself.
 * Outcomes: pending ('Checking Payment Results', Refresh, "I have completed the payment", Back to Homepage; the
 * result is also e-mailed); paid — what happened ("Payment received", the amount charged to which card on which
 * day), what happens next (the consent SMS and where the answer shows), a receipt line (amount, date, the order's
 * short reference, the statement descriptor) and one button: to the request's map when the order's account is
 * signed in here, else to sign in; failed (the decline message and retry); cancelled; refunded. No order named, or
 * an unknown one: a plain notice with the way back to the start (`NoOrder`).
 */
export function PayStatus() {
  const t = useTranslations('PayStatus');
  const tApi = useTranslations('Api');
  const locale = useLocale() as AppLocale;
  const { view, refresh } = usePayStatus();

  if (view === 'loading')
    return (
      <p aria-busy="true" className="text-slate-600">
        {t('loading')}
      </p>
    );
  if (view === 'missing') return <NoOrder />;
  const { order, signedIn } = view;

  return (
    <section
      className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
      data-status={order.status}
    >
      {(order.status === 'pending' || order.status === 'created') && <Pending onRefresh={refresh} />}
      {order.status === 'paid' && <Paid order={order} signedIn={signedIn} locale={locale} />}
      {order.status === 'failed' && (
        <div role="alert">
          <h1 className="text-2xl font-bold text-red-800">{t('failedTitle')}</h1>
          <p className="mt-3 text-slate-700">{tApi('declined')}</p>
          <LocaleLink path={`/checkout/?order=${encodeURIComponent(order.code)}`} className={`mt-6 ${button}`}>
            {t('retry')}
          </LocaleLink>
        </div>
      )}
      {order.status === 'canceled' && (
        <>
          <h1 className="text-2xl font-bold">{t('canceledTitle')}</h1>
          <p className="mt-3 text-slate-700">{t('canceledText')}</p>
          <LocaleLink path="/" className={`mt-6 ${button}`}>
            {t('startAgain')}
          </LocaleLink>
        </>
      )}
      {order.status === 'refunded' && (
        <>
          <h1 className="text-2xl font-bold">{t('refundedTitle')}</h1>
          <BuyAgainLink label={t('buyAgain')} phone={formatPhone(order.phone)} className={`mt-6 ${button}`} />
        </>
      )}
      {order.status !== 'paid' && (
        <>
          <p className="mt-6 text-sm text-slate-600">
            {t('summary', { amount: order.amount, monthly: order.monthlyAmount })}
          </p>
          <OrderFacts order={order} />
        </>
      )}
    </section>
  );
}

/**
 * A payment not confirmed yet: 'Checking Payment Results', with Refresh and "I have completed the payment" (both
 * `onRefresh`, asking again at once) and Back to Homepage.
 */
function Pending({ onRefresh }: { onRefresh: () => void }) {
  const t = useTranslations('PayStatus');
  return (
    <>
      <h1 className="text-2xl font-bold">{t('pendingTitle')}</h1>
      <p className="mt-3 text-slate-700" aria-live="polite">
        {t('pendingText')}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <button type="button" className={button} onClick={onRefresh}>
          {t('refresh')}
        </button>
        <button type="button" className={secondary} onClick={onRefresh}>
          {t('completed')}
        </button>
        <LocaleLink path="/" className={secondary}>
          {t('home')}
        </LocaleLink>
      </div>
    </>
  );
}

/**
 * The paid order: the headline says what happened (amount, the card's scheme and last four digits or the wallet,
 * the day), then what happens next with the consent SMS, the account line, a receipt line, and — for the order's
 * account signed in here — the one button to the request's map (My locations before the request exists).
 */
function Paid({ order, signedIn, locale }: { order: OrderView; signedIn: boolean; locale: AppLocale }) {
  const t = useTranslations('PayStatus');
  // `paidAt` is set in the same transaction that marks an order paid (services/billing/checkout.ts `fulfilOrder`).
  const day = formatDay(order.paidAt!, locale);
  const brand = cardBrandName(order.cardBrand);
  const charged =
    order.method === 'wallet'
      ? t('chargedWallet', { amount: order.amount, date: day })
      : order.card
        ? // No-break spaces: "Visa •••• 4242" is one unit and never wraps inside.
          t('chargedCard', {
            amount: order.amount,
            card: `${brand ? `${brand}\u00a0` : ''}••••\u00a0${order.card}`,
            date: day,
          })
        : t('charged', { amount: order.amount, date: day });
  const phone = formatPhone(order.phone);
  const request = order.requestId
    ? localePath(locale, `/map/?id=${encodeURIComponent(order.requestId)}`)
    : localePath(locale, '/dashboard/locations/');
  return (
    <>
      <h1 className="text-2xl font-bold text-green-800" data-testid="paid-headline">
        {t('paidTitle')} <span className="mt-1 block text-lg font-semibold text-slate-900">{charged}</span>
      </h1>
      {order.smsStatus === 'failed' ? (
        <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="sms-refused">
          {t('smsRefused')}
        </p>
      ) : (
        <p className="mt-3 text-slate-700" data-testid="paid-next">
          {order.smsStatus === 'sent' || order.smsStatus === 'delivered'
            ? t('nextSent', { phone })
            : t('nextSending', { phone })}
        </p>
      )}
      <p className="mt-3 text-slate-700">
        {signedIn
          ? order.temporaryPassword
            ? t('successText', { email: order.email })
            : t('addedToAccount', { email: order.email })
          : order.temporaryPassword
            ? t('authText', { email: order.email })
            : t('authTextExisting', { email: order.email })}
      </p>
      {signedIn ? (
        <Link href={request} className={`mt-6 ${button}`} data-testid="open-request">
          {t('openRequest')}
        </Link>
      ) : (
        <Link href={localePath(locale, '/login/')} className={`mt-6 ${button}`}>
          {t('login')}
        </Link>
      )}
      <p className="mt-6 text-sm text-slate-600" data-testid="receipt">
        {t('receipt', {
          amount: order.amount,
          date: day,
          reference: order.reference,
          descriptor: order.billingDescriptor,
        })}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {t('summary', { amount: order.amount, monthly: order.monthlyAmount })}
      </p>
      <p className="mt-1 text-xs text-slate-500">{t('help', { support: order.supportEmail })}</p>
    </>
  );
}
