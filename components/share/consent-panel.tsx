'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { formatTime } from '@/lib/intl-format';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { requesterFactsText } from '@/lib/requester-facts';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Link } from '../ui/link';
import { useApi } from '../ui/use-api';
import { OpenInBrowser, useOutsideBrowser } from './open-in-browser';
import { MoreTime } from './more-time';
import { ChoiceRow, PrecisionChoice, SharingPrecision } from './precision';
import type { SharePrecision } from '@/lib/contracts/consent';
import { ReportAbuse } from './report-abuse';
import { useConsent, type OwnerState } from './use-consent';

/** States in which the owner may (still or again) share. */
const CAN_SHARE: OwnerState[] = ['asked', 'stopped', 'ended'];
/** States in which nothing more can happen through this link. */
const FINAL: OwnerState[] = ['declined', 'expired', 'withdrawn', 'reported'];

/**
 * The phone owner's consent page (docs/rules.md#the-product, #security, #honest-copy): says who asks (the requester
 * name the buyer gave, the service and the requester's masked e-mail, with what we know of that account:
 * `requesterFactsText`), what is shared (GPS position with its accuracy, an approximate IP location), for how long,
 * and how to stop. Share and Decline are equally prominent; Report abuse
 * (./report-abuse: with an optional reason, offered after a Decline too, ending with safety advice) ends the request
 * and stops all SMS to the number. A single-purpose page: nothing leads to the rest of the site (the route's frame is
 * components/share/owner-shell.tsx). Each state of `useConsent` (asked, sharing, paused, stopped,
 * ended, declined, expired, withdrawn, reported, reconnecting) has its own wording and actions; times are shown in the
 * owner's time zone with the zone named. Share again after a stop or an ended window asks first, naming who will see
 * the position and for how long (a new consent, given as deliberately as the first). When the browser refused
 * location, the help says how to allow it: from the lock icon next to the address, or, in an in-app browser that
 * has none (Instagram, Facebook…), by opening the link in Safari or Chrome (./open-in-browser). Below, "All requests for this number" opens the number's safety centre
 * (app/[locale]/safety/) with this link's code, which proves the number's SMS.
 */
export function ConsentPanel() {
  const t = useTranslations('Consent');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const code = useSearchParams().get('c') ?? '';
  const { state, view, gps, accuracy, sendFailing, error, busy, share, act, moreTime, report, wakeLock, now, resting } =
    useConsent(api, code);
  const [minutes, setMinutes] = useState(60);
  const [precision, setPrecision] = useState<SharePrecision>('exact');
  const [confirmStop, setConfirmStop] = useState(false);
  /** Share again after a stop or an ended window waits for this confirmation: it gives consent anew. */
  const [confirmAgain, setConfirmAgain] = useState(false);
  const inApp = useOutsideBrowser();

  /** Every state's card: the title, then what the state says and offers. */
  const frame = (children: ReactNode) => (
    <section
      className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200"
      data-state={state}
      data-testid="consent-panel"
    >
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      {children}
    </section>
  );
  if (state === 'loading') return frame(<p aria-busy="true">…</p>);
  if (state === 'invalid')
    return frame(
      <p role="alert" className="mt-3 text-lg">
        {t('invalid')}
      </p>,
    );
  if (!view)
    return frame(
      <p role="status" className="mt-3" data-testid="reconnecting">
        {t('reconnecting')}
      </p>,
    );

  const until = view.sharingUntil ? formatTime(view.sharingUntil, locale) : '';
  /** How to allow location again: from the address bar's lock, or, in an in-app browser, by opening a real one. */
  const deniedHelp = inApp ? (
    <OpenInBrowser browser={inApp} link={`${location.origin}${location.pathname}?c=${encodeURIComponent(code)}`} />
  ) : (
    <p className="mt-1 text-sm">{t('deniedHelp')}</p>
  );
  const durationText = (m: number) => (m === 15 ? t('minutes15') : m === 60 ? t('hour1') : t('hours8'));
  const button = 'min-h-11 flex-1 rounded-xl border-2 px-4 py-3 text-lg font-semibold disabled:opacity-60';
  const notice: Partial<Record<OwnerState, string>> = {
    stopped: t('stoppedAt', { time: until }),
    ended: t('endedAt', { time: until }),
    declined: `${t('declined')} ${t('declinedNote')}`,
    expired: t('expired'),
    withdrawn: t('withdrawn'),
    reported: t('reported'),
  };

  return frame(
    <>
      <div className="mt-3 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" data-testid="requester">
        {view.requesterName ? (
          <>
            <p className="text-lg font-semibold text-slate-900">
              {t('whoNamed', {
                name: view.requesterName,
                product: view.product,
              })}
            </p>
            <p className="mt-1 text-sm text-slate-700">{t('account', { email: view.requester })}</p>
          </>
        ) : (
          <p className="text-slate-800">{t('who', { product: view.product, requester: view.requester })}</p>
        )}
        <p className="mt-1 text-sm text-slate-700" data-testid="requester-facts">
          {requesterFactsText(view.facts, locale, t)}
        </p>
        {view.note && (
          <figure className="mt-3 border-l-4 border-slate-300 pl-3" data-testid="owner-note">
            <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600">{t('note')}</figcaption>
            <blockquote className="mt-1 break-words text-slate-900">{view.note}</blockquote>
          </figure>
        )}
      </div>
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

      {CAN_SHARE.includes(state) && (
        <>
          <ChoiceRow
            name="duration"
            legend={t('duration')}
            options={view.presets.map((m) => ({ value: m, label: durationText(m) }))}
            value={minutes}
            onChange={setMinutes}
            className="mt-6"
          />
          <PrecisionChoice value={precision} onChange={setPrecision} />
          {state === 'asked' && <p className="mt-3 text-sm text-slate-600">{t('stopHow')}</p>}
          {gps === 'waiting' && (
            <p role="status" className="mt-4">
              {t('waitingGps')}
            </p>
          )}
          {gps === 'denied' && (
            <div role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="location-denied">
              <p className="font-semibold">{t('gpsDenied')}</p>
              {deniedHelp}
            </div>
          )}
          <div className="mt-6 flex gap-3">
            <button
              type="button"
              disabled={busy}
              data-btn-id="consent_share"
              onClick={() =>
                state === 'stopped' || state === 'ended' ? setConfirmAgain(true) : share(minutes, precision)
              }
              className={`${button} border-brand text-brand`}
            >
              {gps === 'denied' || state !== 'asked' ? t('shareAgain') : t('share')}
            </button>
            {state === 'asked' && (
              <button
                type="button"
                disabled={busy}
                onClick={() => act('decline')}
                className={`${button} border-slate-700 text-slate-800`}
              >
                {t('decline')}
              </button>
            )}
          </div>
        </>
      )}

      {(state === 'sharing' || state === 'paused') && (
        <div className="mt-6 space-y-3" role="status">
          <p className="font-semibold text-green-800">{t('sharing')}</p>
          {until && <p data-testid="sharing-until">{t('until', { time: until })}</p>}
          {state === 'paused' ? (
            <div className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="paused">
              <p>{t('paused', { time: until })}</p>
              {gps === 'denied' && deniedHelp}
            </div>
          ) : (
            <p className="text-sm text-slate-600">{t('pauseNote')}</p>
          )}
          <p className="text-sm text-slate-600" data-testid="rest-note" data-resting={resting}>
            {t('restNote')}
          </p>
          <SharingPrecision precision={view.precision} busy={busy} onApproximate={() => void act('approximate')} />
          <MoreTime view={view} now={now} busy={busy} onAnswer={(action) => void moreTime(action)} />
          {wakeLock.supported && (
            <label className="flex min-h-11 items-start gap-3 text-sm">
              <input
                type="checkbox"
                className="mt-1 h-5 w-5"
                checked={wakeLock.on}
                onChange={(e) => wakeLock.set(e.target.checked)}
                data-testid="keep-screen-on"
              />
              <span>
                {t('keepScreenOn')}
                <span className="block text-slate-600">{t('keepScreenOnNote')}</span>
              </span>
            </label>
          )}
          <p className="text-sm text-slate-600">{t('noHistory')}</p>
          {accuracy !== null && (
            <p data-testid="last-sent">
              {view.precision === 'approximate' ? t('lastSentArea') : t('lastSent', { accuracy })}
            </p>
          )}
          {sendFailing && <p className="text-sm text-amber-800">{t('reconnecting')}</p>}
          <p className="text-sm text-slate-600">{t('stopHow')}</p>
          <button
            type="button"
            disabled={busy}
            onClick={() => setConfirmStop(true)}
            className={`${button} w-full border-slate-700 text-slate-800`}
          >
            {t('stop')}
          </button>
        </div>
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
        open={confirmAgain}
        message={t('shareAgainConfirm', {
          name: view.requesterName ?? view.requester,
          duration: durationText(minutes),
        })}
        confirmLabel={t('shareAgain')}
        cancelLabel={t('cancel')}
        onClose={(confirmed) => {
          setConfirmAgain(false);
          if (confirmed) share(minutes, precision);
        }}
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
    </>,
  );
}
