'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { LocationTrace, MoreTimeAsk } from '@/lib/contracts/locations';
import { formatTime } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';

/** The words for each answer of the owner to the ask for more time (messages/*.json `Map`). */
/** How long the map says a fresh position was asked for (ms): as long as the next ask is refused. */
const REFRESH_SHOWN_MS = 30_000;

const ASK_WORDS: Record<MoreTimeAsk, 'moreTimeAsked' | 'moreTimeGranted' | 'moreTimeRefused'> = {
  asked: 'moreTimeAsked',
  granted: 'moreTimeGranted',
  refused: 'moreTimeRefused',
};

/**
 * Under the buyer's map while a share runs (`running`): when it ends ("Shares until 14:30", in the buyer's time zone;
 * it moves at once when the owner adds time, through the stream's `state` event) and "Ask for more time", once per
 * share (`POST /gpsTrace/phoneLocation/{id}/more-time`, server/services/locate/more-time.ts): the owner decides on
 * their page, no SMS is sent, and the line then says what the owner answered (`trace.moreTime`: asked, granted,
 * refused). A refusal of the API (409: already asked, or the share ended) is shown in its localized words. "Refresh
 * now" (`POST /gpsTrace/phoneLocation/{id}/refresh`, server/services/locate/watchers.ts) asks the owner's open page for
 * one high-accuracy fix, at most every 30 s (the button rests meanwhile; a 429 is said in its words).
 * docs/decisions/0021-more-time-is-the-owners-decision.md.
 */
export function ShareEnd({ trace, running, api }: { trace: LocationTrace; running: boolean; api: ApiClient }) {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  const [asked, setAsked] = useState<{ id: string; sharingUntil: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** "Refresh now" was taken: said, and the button rests, for REFRESH_SHOWN_MS. */
  const [refreshing, setRefreshing] = useState(false);
  if (!running || !trace.sharingUntil) return null;
  // Asked from this page: shown at once, until the stream brings the ask (or a new share clears it).
  const mine = asked?.id === trace.id && asked.sharingUntil === trace.sharingUntil ? 'asked' : null;
  const ask = trace.moreTime ?? mine;

  const askMore = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.call('POST /gpsTrace/phoneLocation/{id}/more-time', { params: { id: trace.id } });
      setAsked({ id: trace.id, sharingUntil: trace.sharingUntil });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const refresh = async () => {
    setError(null);
    try {
      await api.call('POST /gpsTrace/phoneLocation/{id}/refresh', { params: { id: trace.id } });
      setRefreshing(true);
      setTimeout(() => setRefreshing(false), REFRESH_SHOWN_MS);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm" data-testid="share-end">
      <p className="font-medium text-slate-800" data-testid="shares-until">
        {t('sharesUntil', { time: formatTime(trace.sharingUntil, locale) })}
      </p>
      {ask ? (
        <p role="status" className="text-slate-700" data-testid="more-time-state" data-state={ask}>
          {t(ASK_WORDS[ask])}
        </p>
      ) : (
        <div>
          <button
            type="button"
            disabled={busy}
            onClick={() => void askMore()}
            className="min-h-11 rounded-lg border border-brand px-3 py-2 font-medium text-brand disabled:opacity-60"
            data-testid="ask-more-time"
          >
            {t('askMoreTime')}
          </button>
          <p className="mt-1 text-xs text-slate-500">{t('askMoreTimeNote')}</p>
        </div>
      )}
      <div className="w-full">
        <button
          type="button"
          disabled={refreshing}
          onClick={() => void refresh()}
          className="min-h-11 rounded-lg border border-slate-400 px-3 py-2 font-medium text-slate-800 disabled:opacity-60"
          data-testid="refresh-now"
        >
          {t('refreshNow')}
        </button>
        {refreshing && (
          <p role="status" className="mt-1 text-xs text-slate-600" data-testid="refresh-asked">
            {t('refreshAsked')}
          </p>
        )}
      </div>
      {error && (
        <p role="alert" className="w-full text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
