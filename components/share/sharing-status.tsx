'use client';
import { useTranslations } from 'next-intl';
import type { ConsentView } from '@/lib/contracts/consent';
import { MoreTime } from './more-time';
import { LocationDeniedHelp } from './open-in-browser';
import { SharingPrecision } from './precision';
import { OWNER_BUTTON } from './share-choices';
import type { useConsent } from './use-consent';

/** What the running share's card reads from the consent page's state machine (useConsent). */
type SharingState = Pick<
  ReturnType<typeof useConsent>,
  'state' | 'gps' | 'accuracy' | 'sendFailing' | 'busy' | 'act' | 'moreTime' | 'wakeLock' | 'now' | 'resting'
>;

/**
 * The owner's page while a share runs (`consent.state` sharing or paused): that it shares and `until` when (the end,
 * already formatted in the owner's time zone), paused with how to allow location again for this page's consent `code`
 * (or the note on pausing), the rest note (`data-resting` while no map is open), the precision with its switch to
 * approximate, more time, keep the screen on (where the browser has a wake lock), the last fix sent (its accuracy in
 * metres, or the area), a reconnecting note while sends fail, and Stop, which `onStop` confirms first.
 */
export function SharingStatus({
  consent,
  view,
  until,
  code,
  onStop,
}: {
  consent: SharingState;
  view: ConsentView;
  until: string;
  code: string;
  onStop: () => void;
}) {
  const t = useTranslations('Consent');
  const { state, gps, accuracy, sendFailing, busy, act, moreTime, now, resting } = consent;
  return (
    <div className="mt-6 space-y-3" role="status">
      <p className="font-semibold text-green-800">{t('sharing')}</p>
      {until && <p data-testid="sharing-until">{t('until', { time: until })}</p>}
      {state === 'paused' ? (
        <div className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="paused">
          <p>{t('paused', { time: until })}</p>
          {gps === 'denied' && <LocationDeniedHelp code={code} />}
        </div>
      ) : (
        <p className="text-sm text-slate-600">{t('pauseNote')}</p>
      )}
      <p className="text-sm text-slate-600" data-testid="rest-note" data-resting={resting}>
        {t('restNote')}
      </p>
      <SharingPrecision precision={view.precision} busy={busy} onApproximate={() => void act('approximate')} />
      <MoreTime view={view} now={now} busy={busy} onAnswer={(action) => void moreTime(action)} />
      <KeepScreenOn wakeLock={consent.wakeLock} />
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
        onClick={onStop}
        className={`${OWNER_BUTTON} w-full border-slate-700 text-slate-800`}
      >
        {t('stop')}
      </button>
    </div>
  );
}

/**
 * "Keep the screen on" while sharing, a checkbox with its note, shown only where the browser offers a screen wake lock
 * (`wakeLock.supported`); `wakeLock.on` is whether it is asked for, `wakeLock.set` asks for it or lets it go
 * (./owner-presence.ts useWakeLock).
 */
function KeepScreenOn({ wakeLock }: { wakeLock: SharingState['wakeLock'] }) {
  const t = useTranslations('Consent');
  if (!wakeLock.supported) return null;
  return (
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
  );
}
