'use client';
import { useCallback, useEffect, useState } from 'react';
import type { ApiClient } from '@/lib/api/client';
import { sendHeartbeat, useWakeLock } from './owner-presence';
import { stateOf, transient, type GpsState, type OwnerState } from './owner-state';
import { useConsentActions } from './use-consent-actions';
import { useConsentView } from './use-consent-view';
import { usePositionSender, usePositionWatch } from './use-position-fixes';
import { useRestingFixes, useShareNews } from './use-share-news';
import { useSharingPage } from './use-sharing-page';

export type { GpsState, OwnerState };

/**
 * The consent page's state machine (docs/rules.md#security). Loads the view for `code` (network
 * errors retried with backoff, shown as `reconnecting`, never as an invalid link; ./use-consent-view.ts); Share asks
 * the browser first and sends the share with that first fix (nothing is stored before; ./use-consent-actions.ts);
 * while sharing, `watchPosition` sends fixes at most every 10 s unless the phone moved over 25 m, a failed send is
 * retried with the next fix (./use-position-fixes.ts), and the watch restarts when the page becomes visible again
 * (./use-sharing-page.ts). Once no buyer's map has been open for REST_GRACE_MS the GPS rests and one fix is taken
 * every REST_FIX_MS (./use-share-news.ts);
 * a "Refresh now" from the map gets one high-accuracy fix (server/services/locate/watchers.ts). When the window ends on
 * the device's clock the state turns `ended`; a refusal from the server (409/410) reloads the view so the page shows
 * what the server says.
 */
export function useConsent(api: ApiClient, code: string) {
  const [now, setNow] = useState(() => Date.now());
  const sender = usePositionSender(api, code);
  const { gps, setGps, accuracy, setAccuracy, sendFailing, setSendFailing, lastSentRef, precisionRef } = sender;
  const { view, setView, failed, load } = useConsentView(api, code, sender.onView);
  const { resting, isResting, applyNews } = useShareNews(setView, sender.sendFreshFix);
  const { startWatch, stopWatch } = usePositionWatch({
    api,
    code,
    sender: { setGps, setAccuracy, setSendFailing, lastSentRef, precisionRef },
    isResting,
    applyNews,
    load,
  });

  /** The visible page's heartbeat; its answer brings the share's end and the requester's ask for more time. */
  const beat = useCallback(() => {
    sendHeartbeat(api, code).then(
      (news) => news && applyNews(news),
      (e: unknown) => {
        // A refusal (no share runs any more): the page shows what the server says. A failure: the next beat repeats.
        if (!transient(e)) void load();
      },
    );
  }, [api, code, applyNews, load]);

  useEffect(() => {
    if (code) void load();
    return stopWatch;
  }, [code, load, stopWatch]);

  const sharing = view?.status === 'sharing' || view?.status === 'paused';
  useSharingPage({ sharing, code, startWatch, stopWatch, beat, setGps, setNow });
  // No map open: the GPS rests, one fix every REST_FIX_MS while the page is visible; a map opened starts the watch again.
  const { sendFreshFix } = sender;
  useRestingFixes({ sharing, resting, isResting, lastSentRef, startWatch, stopWatch, sendFreshFix });

  const wakeLock = useWakeLock(sharing);
  const { busy, error, share, act, moreTime, report } = useConsentActions({
    api,
    code,
    load,
    stopWatch,
    applyNews,
    setGps,
    setAccuracy,
    precisionRef,
    lastSentRef,
  });

  const state: OwnerState = failed ?? (view ? stateOf(view, now, gps) : 'loading');
  return { state, view, gps, accuracy, sendFailing, error, busy, share, act, moreTime, report, wakeLock, now, resting };
}
