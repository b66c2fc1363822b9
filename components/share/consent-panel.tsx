'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { formatTime } from '@/lib/intl-format';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Link } from '../ui/link';
import { useApi } from '../ui/use-api';
import { ReportAbuse } from './report-abuse';
import { RequesterCard } from './requester-card';
import { durationText, ShareChoices, useShareChoice } from './share-choices';
import { SharingStatus } from './sharing-status';
import { useConsent, type OwnerState } from './use-consent';

/** States in which the owner may (still or again) share. */
const CAN_SHARE: OwnerState[] = ['asked', 'stopped', 'ended'];
/** States in which nothing more can happen through this link. */
const FINAL: OwnerState[] = ['declined', 'expired', 'withdrawn', 'reported'];

/**
 * The phone owner's consent page (docs/rules.md#the-product, #security, #honest-copy): says who asks (the requester
 * name the buyer gave, the service and the requester's masked e-mail, with what we know of that account:
 * `requesterFactsText`; ./requester-card), what is shared (GPS position with its accuracy, an approximate IP
 * location), for how long, and how to stop. Share and Decline are equally prominent (./share-choices); Report abuse
 * (./report-abuse: with an optional reason, offered after a Decline too, ending with safety advice) ends the request
 * and stops all SMS to the number. A single-purpose page: nothing leads to the rest of the site (the route's frame is
 * components/share/owner-shell.tsx). Each state of `useConsent` (asked, sharing, paused, stopped,
 * ended, declined, expired, withdrawn, reported, reconnecting) has its own wording and actions; times are shown in the
 * owner's time zone with the zone named. Share again after a stop or an ended window asks first, naming who will see
 * the position and for how long (a new consent, given as deliberately as the first). When the browser refused
 * location, the help says how to allow it: from the lock icon next to the address, or, in an in-app browser that
 * has none (Instagram, Facebook…), by opening the link in Safari or Chrome (./open-in-browser). While a share runs,
 * ./sharing-status shows it with its controls. Below, "All requests for this number" opens the number's safety
 * centre (app/[locale]/safety/) with this link's code, which proves the number's SMS.
 */
export function ConsentPanel() {
  const t = useTranslations('Consent');
  const locale = useLocale() as AppLocale;
  const code = useSearchParams().get('c') ?? '';
  const consent = useConsent(useApi(), code);
  const { state, view, error, share, act, report } = consent;
  const choice = useShareChoice(state, share);
  const [confirmStop, setConfirmStop] = useState(false);

  if (state === 'loading' || state === 'invalid' || !view)
    return (
      <ConsentFrame state={state}>
        <ConsentPending state={state} />
      </ConsentFrame>
    );
  const until = view.sharingUntil ? formatTime(view.sharingUntil, locale) : '';
  return (
    <ConsentFrame state={state}>
      <RequesterCard view={view} />
      <ConsentNotices state={state} until={until} error={error} />
      {CAN_SHARE.includes(state) && <ShareChoices consent={consent} view={view} code={code} choice={choice} />}
      {(state === 'sharing' || state === 'paused') && (
        <SharingStatus consent={consent} view={view} until={until} code={code} onStop={() => setConfirmStop(true)} />
      )}
      <ReportAbuse
        product={view.product}
        reported={state === 'reported'}
        declined={state === 'declined'}
        report={report}
      />
      {/* The number's safety centre: holding this link proves the number's SMS (app/[locale]/safety/). */}
      <p className="mt-6 border-t border-slate-200 pt-4">
        <Link
          href={localePath(locale, `/safety/?c=${encodeURIComponent(code)}`)}
          className="inline-flex min-h-11 items-center font-medium text-brand underline"
          data-testid="all-requests"
        >
          {t('allRequests')}
        </Link>
      </p>
      <ConfirmDialog
        open={choice.asking}
        message={t('shareAgainConfirm', {
          name: view.requesterName ?? view.requester,
          duration: durationText(choice.minutes, t),
        })}
        confirmLabel={t('shareAgain')}
        cancelLabel={t('cancel')}
        onClose={choice.answer}
      />
      <ConfirmDialog
        open={confirmStop}
        message={t('stopConfirm')}
        confirmLabel={t('confirm')}
        cancelLabel={t('cancel')}
        onClose={(confirmed) => {
          setConfirmStop(false);
          if (confirmed) void act('stop');
        }}
      />
    </ConsentFrame>
  );
}

/** Every state's card of the consent page: the title, then `children`, what the state says and offers. */
function ConsentFrame({ state, children }: { state: OwnerState; children: ReactNode }) {
  const t = useTranslations('Consent');
  return (
    <section
      className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
      data-state={state}
      data-testid="consent-panel"
    >
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {children}
    </section>
  );
}

/** The card's text before there is a view to show: loading, an invalid link, or reconnecting to the server. */
function ConsentPending({ state }: { state: OwnerState }) {
  const t = useTranslations('Consent');
  if (state === 'loading') return <p aria-busy="true">…</p>;
  if (state === 'invalid')
    return (
      <p role="alert" className="mt-3 text-lg">
        {t('invalid')}
      </p>
    );
  return (
    <p role="status" className="mt-3" data-testid="reconnecting">
      {t('reconnecting')}
    </p>
  );
}

/**
 * What the state says under who asks: what is shared (until the link is final), the last action's `error`, the
 * state's notice (stopped or ended at `until`, the end formatted in the owner's time zone; declined, expired,
 * withdrawn, reported) and, after a stop or an ended window, the note that sharing again is a new consent.
 */
function ConsentNotices({ state, until, error }: { state: OwnerState; until: string; error: string | null }) {
  const t = useTranslations('Consent');
  const notice: Partial<Record<OwnerState, string>> = {
    stopped: t('stoppedAt', { time: until }),
    ended: t('endedAt', { time: until }),
    declined: `${t('declined')} ${t('declinedNote')}`,
    expired: t('expired'),
    withdrawn: t('withdrawn'),
    reported: t('reported'),
  };
  return (
    <>
      {!FINAL.includes(state) && (
        <p className="mt-3 text-slate-700">
          {t('what')} {state === 'asked' && t('noHistory')}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}
      {notice[state] && (
        <p role="status" className="mt-6 font-semibold" data-testid="owner-notice">
          {notice[state]}
        </p>
      )}
      {(state === 'stopped' || state === 'ended') && <p className="mt-2 text-slate-700">{t('againNote')}</p>}
    </>
  );
}
