'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import type { Acknowledgement, ContractView, WithdrawLink } from '@/lib/contracts/withdraw';
import { formatDateTime } from '@/lib/intl-format';
import { formatPhone } from '@/lib/phone-format';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { readUserInfo } from '@/lib/user-info';
import { Link } from '../ui/link';
import { DangerButton } from '../ui/form-alert';
import { useApi } from '../ui/use-api';
import { EmailLinkForm, LinkMessage, type LinkFormMessage } from './email-link-form';

type Source = { kind: 'link'; token: string } | { kind: 'account' };
type LinkState = WithdrawLink['state'];

/** The browser's IANA time zone, sent with the confirmation so the acknowledgement states it. */
function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * `/withdraw` — the withdrawal function (Directive 2011/83/EU Art. 11a; services/billing/withdrawals.ts): separate from
 * cancelling, reachable from the footer, Billing and every order e-mail. Signed in, the confirmation step shows at once
 * (`GET /admin/withdraw/contracts`); otherwise the e-mail of the account → a single-use link (24 h,
 * `POST /portal/withdraw/request`, same answer for unknown addresses) → `/withdraw?token=…`
 * (`GET /portal/withdraw/link/{token}`). The confirmation step names the contract (product, order reference, payment
 * date, prices, number, subscription), the withdrawal period, and what happens (the refund by the rule, requests in
 * progress end); "Confirm withdrawal" (`POST …/withdraw/confirm` with the browser's zone) shows the acknowledgement
 * with the date and time in UTC and in the reader's zone, which is also e-mailed; it is scrolled into view and
 * focused, so on a 360 px phone it is on screen right after Confirm (not above it). After the 14 days the contract says
 * the period has ended and offers cancellation instead. A link ends when used: opened again, it says only when the
 * withdrawal was completed (`completedAt`), no number and no order (services/billing/withdrawal-links.ts `withdrawLinkState`).
 * Texts: messages/*.json `Withdraw`.
 */
export function WithdrawFlow() {
  const t = useTranslations('Withdraw');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const token = useSearchParams().get('token');
  const [source, setSource] = useState<Source | null>(null);
  const [linkState, setLinkState] = useState<LinkState | null>(null);
  /** When the withdrawal made with a used link was completed (ISO): all a used link shows. */
  const [completedAt, setCompletedAt] = useState<string | null>(null);
  const [contracts, setContracts] = useState<ContractView[] | null>(null);
  const [done, setDone] = useState<Acknowledgement | null>(null);
  const [busy, setBusy] = useState(false);
  /** Without a token: whether the sign-in check has answered (the e-mail form waits for it). */
  const [checked, setChecked] = useState(false);
  const [message, setMessage] = useState<LinkFormMessage | null>(null);
  const top = useRef<HTMLElement>(null);
  const ack = useRef<HTMLDivElement>(null);

  // Confirm sits below the contract: on a phone the acknowledgement that replaces it would start above the screen.
  // Brought into view (title, date and time first) and focused, so it is seen and read at once.
  useEffect(() => {
    if (!done) return;
    top.current?.scrollIntoView({ block: 'start' });
    ack.current?.focus({ preventScroll: true });
  }, [done]);

  useEffect(() => {
    if (token) {
      api.call('GET /portal/withdraw/link/{token}', { params: { token } }).then(
        (v) => {
          setLinkState(v.state);
          setContracts(v.contracts);
          setCompletedAt(v.completedAt);
          if (v.state === 'usable') setSource({ kind: 'link', token });
        },
        (e: Error) => setMessage({ text: e.message, role: 'alert' }),
      );
      return;
    }
    // Signed in: straight to the confirmation step; otherwise (401, 403) the e-mail form. A browser without the
    // readable `userInfo` cookie has no session here: the form, without a request bound to answer 401.
    const signedIn = readUserInfo()
      ? api.call('GET /admin/withdraw/contracts')
      : Promise.reject(new Error('not signed in'));
    signedIn.then(
      (v) => {
        setContracts(v.contracts);
        setSource({ kind: 'account' });
        setChecked(true);
      },
      () => setChecked(true),
    );
  }, [api, token]);

  const onConfirm = async (code: string) => {
    if (!source) return;
    setBusy(true);
    setMessage(null);
    try {
      const zone = browserZone();
      const body = { code, ...(zone ? { timeZone: zone } : {}) };
      const ack =
        source.kind === 'link'
          ? await api.call('POST /portal/withdraw/confirm', { body: { ...body, token: source.token } })
          : await api.call('POST /admin/withdraw/confirm', { body });
      setDone(ack);
    } catch (e) {
      setMessage({ text: (e as Error).message, role: 'alert' });
    }
    setBusy(false);
  };

  const date = (iso: string) => formatDateTime(iso, locale);
  const usable = source?.kind === 'account' || linkState === 'usable';
  const showForm = !done && !source && (token ? linkState === 'expired' || linkState === 'unknown' : checked);

  return (
    <section
      ref={top}
      className="mx-auto max-w-lg scroll-mt-4 space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
    >
      <h1 className="text-2xl font-bold">{done ? t('doneTitle') : t('title')}</h1>
      {done ? (
        <div role="status" ref={ack} tabIndex={-1} className="space-y-2 outline-none" data-testid="withdraw-done">
          <p className="font-semibold">{t('done', { product: done.product, reference: done.reference })}</p>
          <p>{t('doneAt', { utc: done.atUtc })}</p>
          {done.atLocal && <p>{t('doneAtLocal', { local: done.atLocal })}</p>}
          <p>{done.refundMinor > 0 ? t('doneRefund', { refund: done.refund }) : t('doneNoRefund')}</p>
          <p>{t('doneRequests')}</p>
          <p className="text-slate-700">{t('doneEmail')}</p>
        </div>
      ) : (
        <p className="text-slate-700">{t('lead')}</p>
      )}
      {!done && token && linkState === null && !message && <p aria-busy="true">{t('checking')}</p>}
      {!done && token && linkState === 'used' && (
        <p className="font-semibold" data-testid="withdraw-used">
          {completedAt ? t('usedOn', { date: date(completedAt) }) : t('used')}
        </p>
      )}
      {!done && token && (linkState === 'expired' || linkState === 'unknown') && <p role="alert">{t(linkState)}</p>}
      {!done && source && contracts && contracts.length === 0 && <p>{t('none')}</p>}
      {!done &&
        source &&
        contracts?.map((c) => (
          <article
            key={c.code}
            className="space-y-2 rounded-xl bg-slate-50 p-4 text-sm"
            data-testid="withdraw-contract"
          >
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
                  <DangerButton
                    busy={busy}
                    onClick={() => onConfirm(c.code)}
                    label={t('confirm')}
                    busyLabel={t('working')}
                  />
                )}
              </>
            )}
            {c.state === 'period_ended' && (
              <>
                <p>{t('periodEnded', { date: date(c.deadline) })}</p>
                <Link
                  href={localePath(locale, source.kind === 'account' ? '/cancel-subscription/' : '/cancel/')}
                  className="inline-flex min-h-11 items-center font-semibold text-brand underline"
                >
                  {t('cancelInstead')}
                </Link>
              </>
            )}
            {c.state === 'withdrawn' && c.withdrawal && (
              <p>{t('alreadyWithdrawn', { date: date(c.withdrawal.at), refund: c.withdrawal.refund })}</p>
            )}
            {c.state === 'refunded' && <p>{t('refunded')}</p>}
          </article>
        ))}
      {showForm && (
        <EmailLinkForm namespace="Withdraw" endpoint="POST /portal/withdraw/request" onResult={setMessage} />
      )}
      <LinkMessage message={message} />
    </section>
  );
}
