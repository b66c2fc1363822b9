'use client';
import { useTranslations } from 'next-intl';
import { MORE_TIME_STEPS, minutesAddable, type ConsentView } from '@/lib/contracts/consent';

/**
 * "Need more time?" on the owner's page while a share runs (docs/decisions/0021-more-time-is-the-owners-decision.md):
 * "+15 min" and "+1 h" (MORE_TIME_STEPS) add to the share's end, never beyond 8 hours from now (a step that would add
 * nothing is greyed out, with the reason); when the requester asked for more time (`view.moreTimeAsked`) the ask is
 * shown first, named, with the same steps to accept and No to keep the end. Nothing changes without the owner's tap.
 * `now` is the page's clock (ms), `busy` greys the buttons while an answer is on its way, `onAnswer` sends it
 * (components/share/use-consent-actions.ts `moreTime`).
 */
export function MoreTime({
  view,
  now,
  busy,
  onAnswer,
}: {
  view: ConsentView;
  now: number;
  busy: boolean;
  onAnswer: (action: { action: 'extend'; minutes: number } | { action: 'keep_end' }) => void;
}) {
  const t = useTranslations('Consent');
  if (!view.sharingUntil) return null;
  const until = Date.parse(view.sharingUntil);
  const atMax = MORE_TIME_STEPS.every((m) => minutesAddable(until, m, now) === 0);
  const button =
    'min-h-11 flex-1 whitespace-nowrap rounded-xl border-2 border-brand px-2 py-2 font-semibold text-brand disabled:opacity-60';
  const steps = MORE_TIME_STEPS.map((m) => (
    <button
      key={m}
      type="button"
      disabled={busy || minutesAddable(until, m, now) === 0}
      onClick={() => onAnswer({ action: 'extend', minutes: m })}
      className={button}
      data-testid={`add-${m}`}
    >
      {m === 15 ? t('addMinutes15') : t('addHour1')}
    </button>
  ));
  if (view.moreTimeAsked)
    return (
      <div className="rounded-lg bg-sky-50 p-3 text-sky-950 ring-1 ring-sky-200" data-testid="more-time-ask">
        <p className="font-semibold">{t('moreTimeAsk', { name: view.requesterName ?? view.requester })}</p>
        {atMax && <p className="mt-1 text-sm">{t('moreTimeMax')}</p>}
        <div className="mt-3 flex gap-2">
          {steps}
          <button
            type="button"
            disabled={busy}
            onClick={() => onAnswer({ action: 'keep_end' })}
            className="min-h-11 flex-1 whitespace-nowrap rounded-xl border-2 border-slate-700 px-2 py-2 font-semibold text-slate-800 disabled:opacity-60"
            data-testid="keep-end"
          >
            {t('keepEnd')}
          </button>
        </div>
      </div>
    );
  return (
    <fieldset className="rounded-lg p-3 ring-1 ring-slate-200" data-testid="more-time">
      <legend className="px-1 text-sm font-medium text-slate-800">{t('moreTime')}</legend>
      <p className="text-sm text-slate-600">{atMax ? t('moreTimeMax') : t('moreTimeNote')}</p>
      <div className="mt-2 flex gap-2">{steps}</div>
    </fieldset>
  );
}
