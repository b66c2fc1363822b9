'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { OfferView } from '@/lib/contracts/orders';
import { localePath } from '@/i18n/routing';
import type { AppLocale } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';
import { OwnerNoteField } from './owner-note-field';
import { usePayOrder, type PayOrderInput } from './use-pay-order';

/**
 * The pay step of the locate flow (docs/rules.md#routes payment flow, docs/rules.md#honest-copy): the first-order
 * discount when the server says it is this buyer's (`POST /portal/priceSetup/offer`: first order from this browser and
 * this address, once), stated with its rule and no time limit — no countdown, which for an offer that does not really
 * end would be a false "limited time" claim (Directive 2005/29/EC, Annex I point 7); then, in the same type size as the
 * price, the trial price, its 24 hours, the monthly price it converts to, that it renews until cancelled and how to
 * cancel; the statement descriptor, said of the card or, when the buyer chose the wallet, of the wallet's activity
 * (what `renderTermsShown` in server/services/billing/subscription-consents.ts records too); card or wallet; the
 * request to start at once and what a withdrawal then refunds (`Pay.startNow`, sent as `startNow`: Directive 2011/83/EU
 * Art. 7(3), 14(3)); and Pay, which creates the order (`POST /portal/order` with an idempotency key). The discounted
 * price and the struck regular price stand side by side, large, above the terms and Pay goes where the answer's `next`
 * says. If the discount went to another order first (409, reason `discount_used`), the regular price is shown with the
 * server's message. An e-mail that already has an account (409, reason `email_registered`) gets a sign-in link that
 * returns to New request with this number. Above the offer, the optional note to the owner, checked by
 * `ownerNoteProblem` before the order is made (with the confusables table, loaded on that first check:
 * `loadPrototypes`).
 */
export function PayStep({ email, phone, requesterName }: PayOrderInput) {
  const t = useTranslations('Pay');
  const locale = useLocale() as AppLocale;
  const pay = usePayOrder({ email, phone, requesterName });
  const { view, running, method, error } = pay;

  if (!view) {
    return error ? (
      <p role="alert" className="text-sm text-red-700">
        {error}
      </p>
    ) : (
      <p aria-busy="true" className="text-sm text-slate-600">
        …
      </p>
    );
  }
  const trial = running ? view.plan.trialText : view.plan.listTrialText;

  return (
    <div className="space-y-3" data-testid="pay-step">
      <OwnerNoteField
        value={pay.note}
        error={pay.noteError}
        onChange={(event) => pay.onNoteChange(event.target.value)}
      />
      <PayOffer view={view} running={running} trial={trial} />
      <fieldset className="flex gap-4 text-sm">
        <legend className="mb-1 font-medium text-slate-800">{t('method')}</legend>
        {(['card', 'wallet'] as const).map((m) => (
          <label key={m} className="flex min-h-11 items-center gap-2 pr-2">
            <input
              className="h-5 w-5"
              type="radio"
              name="method"
              value={m}
              checked={method === m}
              onChange={() => pay.setMethod(m)}
            />
            {t(m)}
          </label>
        ))}
      </fieldset>
      {/* A wallet payer has no card statement to read: the line names where they will see the payment. */}
      <p className="text-sm text-slate-600" data-testid="descriptor">
        {t(method === 'wallet' ? 'descriptorWallet' : 'descriptor', { descriptor: view.billingDescriptor })}
      </p>
      <p className="text-sm text-slate-600" data-testid="start-now">
        {t('startNow')}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}{' '}
          {pay.registered && (
            <Link
              href={localePath(locale, `/login/?redirect=getLocation&phone=${encodeURIComponent(phone)}`)}
              className="font-semibold underline"
            >
              {t('signInToContinue')}
            </Link>
          )}
        </p>
      )}
      <button
        type="button"
        data-btn-id="pay"
        onClick={pay.onPay}
        disabled={pay.busy}
        className="w-full rounded-lg bg-brand px-4 py-3 text-base font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
      >
        {pay.busy ? t('paying') : t('pay', { amount: trial })}
      </button>
    </div>
  );
}

/**
 * The pay step's offer and price: the first-order discount with its rule while it applies (`running`), or that it
 * went to another order; the trial price (`trial`, formatted) large, beside the struck regular price while the
 * discount applies; the line of the trial, its 24 hours and the monthly price it converts to; what the plan includes.
 */
function PayOffer({ view, running, trial }: { view: OfferView; running: boolean; trial: string }) {
  const t = useTranslations('Pay');
  const { plan } = view;
  return (
    <>
      {view.offer && (
        <div
          className={`rounded-lg p-3 text-sm ${running ? 'bg-green-50 text-green-900' : 'bg-slate-100 text-slate-700'}`}
          data-testid="first-order"
        >
          {running ? (
            <>
              <p className="font-semibold">
                {t('firstOrderTitle', { price: plan.trialText, list: plan.listTrialText })}
              </p>
              <p>{t('firstOrderRule', { percent: view.offer.percentOff })}</p>
            </>
          ) : (
            <p>{t('offerUsed')}</p>
          )}
        </div>
      )}
      <p className="flex flex-wrap items-baseline gap-x-3" data-testid="offer-price">
        <span className="text-3xl font-bold text-slate-900">{trial}</span>
        {running && (
          <>
            <s className="text-xl text-slate-500" aria-hidden>
              {plan.listTrialText}
            </s>
            <span className="sr-only">{t('wasPrice', { price: plan.listTrialText })}</span>
          </>
        )}
      </p>
      <p className="text-base font-medium text-slate-900" data-testid="price-line">
        {t('priceLine', { trial, monthly: plan.monthlyText })}
      </p>
      <p className="text-sm text-slate-600">{t('includes', { count: plan.geolocations })}</p>
    </>
  );
}
