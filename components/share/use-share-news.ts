'use client';
import { useCallback, useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { ConsentAnswer, ConsentView, PresenceAnswer } from '@/lib/contracts/consent';
import { REST_FIX_MS, REST_GRACE_MS } from '@/lib/live-state';
import type { SentFix } from './use-position-fixes';

// What the server's answers tell the owner's running share (components/share/use-consent.ts), and the rest the page
// takes while no buyer's map is open (server/services/locate/watchers.ts, lib/live-state.ts).

/**
 * What an answer says of the running share goes into the page at once (`applyNews`): its end and the requester's ask
 * (into the view, through `setView`), whether a map is open (the page rests once none has been for REST_GRACE_MS:
 * `resting`, and `isResting()` for the callbacks), and a "Refresh now" not served yet (one fresh fix each, through
 * `sendFreshFix`). An answer without the share's end (`sharingUntil`) says nothing and changes nothing.
 */
export function useShareNews(setView: Dispatch<SetStateAction<ConsentView | null>>, sendFreshFix: () => void) {
  /** No buyer's map is open: the GPS rests and a fix is taken every REST_FIX_MS (the ref for the callbacks). */
  const [resting, setResting] = useState(false);
  const restingRef = useRef(false);
  /** Since when (ms) the answers say no map is open; null while one is. */
  const unwatchedSince = useRef<number | null>(null);
  /** The last "Refresh now" answered, so that each is answered once. */
  const servedWant = useRef<string | null>(null);

  const applyNews = useCallback(
    (news: Partial<PresenceAnswer> | ConsentAnswer) => {
      const { sharingUntil, moreTimeAsked, watched, fixWantedAt } = news;
      if (sharingUntil === undefined) return;
      setView((v) => (v ? { ...v, sharingUntil, moreTimeAsked: moreTimeAsked ?? false } : v));
      if (watched !== undefined) {
        // Rest only after REST_GRACE_MS without a map: a buyer who opens it on the "shared" alert finds it awake.
        if (watched) unwatchedSince.current = null;
        else unwatchedSince.current ??= Date.now();
        const rest = !watched && Date.now() - unwatchedSince.current! >= REST_GRACE_MS;
        if (rest !== restingRef.current) {
          restingRef.current = rest;
          setResting(rest);
        }
      }
      if (fixWantedAt && fixWantedAt !== servedWant.current) {
        servedWant.current = fixWantedAt;
        sendFreshFix();
      }
    },
    [setView, sendFreshFix],
  );

  /** Whether the page rests now, for callbacks that run later than the render that made them. */
  const isResting = useCallback(() => restingRef.current, []);

  return { resting, isResting, applyNews };
}

/**
 * While sharing and `resting` (no map open), the watch stops and one fresh fix is sent every REST_FIX_MS while the
 * page is visible (`sendFreshFix`). When the rest ends (a map opened) on a visible page, the watch starts again with
 * no last fix (`lastSentRef` cleared), so the next fix is sent at once.
 */
export function useRestingFixes({
  sharing,
  resting,
  isResting,
  lastSentRef,
  startWatch,
  stopWatch,
  sendFreshFix,
}: {
  sharing: boolean;
  resting: boolean;
  isResting: () => boolean;
  lastSentRef: RefObject<SentFix | null>;
  startWatch: () => void;
  stopWatch: () => void;
  sendFreshFix: () => void;
}) {
  useEffect(() => {
    if (!sharing || !resting) return;
    stopWatch();
    const rest = setInterval(() => {
      if (document.visibilityState === 'visible') sendFreshFix();
    }, REST_FIX_MS);
    return () => {
      clearInterval(rest);
      if (!isResting() && document.visibilityState === 'visible') {
        lastSentRef.current = null;
        startWatch();
      }
    };
  }, [sharing, resting, stopWatch, startWatch, sendFreshFix, isResting, lastSentRef]);
}
