'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { Ref } from 'react';
import type { Acknowledgement } from '@/lib/contracts/withdraw';
import { formatDateTime } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';
import { EmailLinkForm, LinkMessage } from './email-link-form';
import { useRevealAcknowledgement, useWithdrawFlow } from './use-withdraw-flow';
import { WithdrawContract } from './withdraw-contract';

/**
 * `/withdraw` — the withdrawal function (Directive 2011/83/EU Art. 11a; services/billing/withdrawals.ts): separate
 * from cancelling, reachable from the footer, Billing and every order e-mail. Signed in, the confirmation step shows
 * at once (`GET /admin/withdraw/contracts`); otherwise the e-mail of the account → a single-use link (24 h,
 * `POST /portal/withdraw/request`, same answer for unknown addresses) → `/withdraw?token=…`
 * (`GET /portal/withdraw/link/{token}`). The confirmation step names the contract (product, order reference, payment
 * date, prices, number, subscription), the withdrawal period, and what happens (the refund by the rule, requests in
 * progress end); "Confirm withdrawal" (`POST …/withdraw/confirm` with the browser's zone) shows the acknowledgement
 * with the date and time in UTC and in the reader's zone, which is also e-mailed; it is scrolled into view and
 * focused, so on a 360 px phone it is on screen right after Confirm (not above it). After the 14 days the contract
 * says the period has ended and offers cancellation instead. A link ends when used: opened again, it says only when
 * the withdrawal was completed (`completedAt`), no number and no order (services/billing/withdrawal-links.ts
 * `withdrawLinkState`). Texts: messages/*.json `Withdraw`.
 */
export function WithdrawFlow() {
  const t = useTranslations('Withdraw');
  const locale = useLocale() as AppLocale;
  const flow = useWithdrawFlow();
  const { done, source, linkState } = flow;
  const { top, ack } = useRevealAcknowledgement(done);

  return (
    <section
      ref={top}
      className="mx-auto max-w-lg scroll-mt-4 space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
    >
      <h1 className="text-2xl font-bold">{done ? t('doneTitle') : t('title')}</h1>
      {done ? <WithdrawDone done={done} ref={ack} /> : <p className="text-slate-700">{t('lead')}</p>}
      {!done && flow.token && linkState === null && !flow.message && <p aria-busy="true">{t('checking')}</p>}
      {!done && flow.token && linkState === 'used' && (
        <p className="font-semibold" data-testid="withdraw-used">
          {flow.completedAt ? t('usedOn', { date: formatDateTime(flow.completedAt, locale) }) : t('used')}
        </p>
      )}
      {!done && flow.token && (linkState === 'expired' || linkState === 'unknown') && (
        <p role="alert">{t(linkState)}</p>
      )}
      {!done && source && flow.contracts && flow.contracts.length === 0 && <p>{t('none')}</p>}
      {!done &&
        source &&
        flow.contracts?.map((c) => (
          <WithdrawContract
            key={c.code}
            contract={c}
            account={source.kind === 'account'}
            usable={flow.usable}
            busy={flow.busy}
            onConfirm={flow.onConfirm}
          />
        ))}
      {flow.showForm && (
        <EmailLinkForm namespace="Withdraw" endpoint="POST /portal/withdraw/request" onResult={flow.setMessage} />
      )}
      <LinkMessage message={flow.message} />
    </section>
  );
}

/**
 * The acknowledgement of a confirmed withdrawal (`done`): the contract, the date and time in UTC and in the reader's
 * zone, the refund (or none), that requests in progress end, and that it was e-mailed too. Focusable through `ref`,
 * so it can be focused once shown.
 */
function WithdrawDone({ done, ref }: { done: Acknowledgement; ref: Ref<HTMLDivElement> }) {
  const t = useTranslations('Withdraw');
  return (
    <div role="status" ref={ref} tabIndex={-1} className="space-y-2 outline-none" data-testid="withdraw-done">
      <p className="font-semibold">{t('done', { product: done.product, reference: done.reference })}</p>
      <p>{t('doneAt', { utc: done.atUtc })}</p>
      {done.atLocal && <p>{t('doneAtLocal', { local: done.atLocal })}</p>}
      <p>{done.refundMinor > 0 ? t('doneRefund', { refund: done.refund }) : t('doneNoRefund')}</p>
      <p>{t('doneRequests')}</p>
      <p className="text-slate-700">{t('doneEmail')}</p>
    </div>
  );
}
