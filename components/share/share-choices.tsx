'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ConsentView, SharePrecision } from '@/lib/contracts/consent';
import { LocationDeniedHelp } from './open-in-browser';
import { ChoiceRow, PrecisionChoice } from './precision';
import type { OwnerState, useConsent } from './use-consent';

/** The consent page's large action buttons (Share, Decline, Stop): equally prominent, at least 44 px high. */
export const OWNER_BUTTON = 'min-h-11 flex-1 rounded-xl border-2 px-4 py-3 text-lg font-semibold disabled:opacity-60';

/** A duration preset (minutes: 15, 60 or 480) in the owner's words: "15 minutes", "1 hour", "8 hours". */
export function durationText(minutes: number, t: (key: 'minutes15' | 'hour1' | 'hours8') => string): string {
  return minutes === 15 ? t('minutes15') : minutes === 60 ? t('hour1') : t('hours8');
}

/**
 * The owner's choice before a share: `minutes` (the duration, 60 at first) and `precision` ('exact' at first) with
 * their setters; `start` shares at once when first asked (`share`, useConsent's), but after a stop or an ended
 * window (`state`) it opens the confirmation first (`asking`), since sharing again gives consent anew; `answer` closes
 * that confirmation and shares only when it was confirmed.
 */
export function useShareChoice(state: OwnerState, share: (minutes: number, precision: SharePrecision) => unknown) {
  const [minutes, setMinutes] = useState(60);
  const [precision, setPrecision] = useState<SharePrecision>('exact');
  const [asking, setAsking] = useState(false);
  const start = () => (state === 'stopped' || state === 'ended' ? setAsking(true) : share(minutes, precision));
  const answer = (confirmed: boolean) => {
    setAsking(false);
    if (confirmed) share(minutes, precision);
  };
  return { minutes, setMinutes, precision, setPrecision, asking, start, answer };
}

/**
 * What the owner chooses before sharing (while first asked, and again after a stop or an ended window): the duration
 * among the view's presets, exact or approximate, how to stop, the browser's answer on location (`consent.gps`:
 * waiting, or refused with how to allow it again for this page's consent `code`), then Share (or Share again) and,
 * when first asked, Decline, both greyed while `consent.busy`. `consent` is useConsent's, `choice` useShareChoice's.
 */
export function ShareChoices({
  consent,
  view,
  code,
  choice,
}: {
  consent: Pick<ReturnType<typeof useConsent>, 'state' | 'gps' | 'busy' | 'act'>;
  view: ConsentView;
  code: string;
  choice: ReturnType<typeof useShareChoice>;
}) {
  const { state, gps, busy, act } = consent;
  const t = useTranslations('Consent');
  return (
    <>
      <ChoiceRow
        name="duration"
        legend={t('duration')}
        options={view.presets.map((m) => ({ value: m, label: durationText(m, t) }))}
        value={choice.minutes}
        onChange={choice.setMinutes}
        className="mt-6"
      />
      <PrecisionChoice value={choice.precision} onChange={choice.setPrecision} />
      {state === 'asked' && <p className="mt-3 text-sm text-slate-600">{t('stopHow')}</p>}
      {gps === 'waiting' && (
        <p role="status" className="mt-4">
          {t('waitingGps')}
        </p>
      )}
      {gps === 'denied' && (
        <div role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="location-denied">
          <p className="font-semibold">{t('gpsDenied')}</p>
          <LocationDeniedHelp code={code} />
        </div>
      )}
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          disabled={busy}
          data-btn-id="consent_share"
          onClick={choice.start}
          className={`${OWNER_BUTTON} border-brand text-brand`}
        >
          {gps === 'denied' || state !== 'asked' ? t('shareAgain') : t('share')}
        </button>
        {state === 'asked' && (
          <button
            type="button"
            disabled={busy}
            onClick={() => act('decline')}
            className={`${OWNER_BUTTON} border-slate-700 text-slate-800`}
          >
            {t('decline')}
          </button>
        )}
      </div>
    </>
  );
}
