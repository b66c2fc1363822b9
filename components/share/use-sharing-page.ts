'use client';
import { useEffect } from 'react';
import { LIVE_HEARTBEAT_MS } from '@/lib/live-state';
import { sendPresence, setPageLeaving } from './owner-presence';
import type { GpsState } from './owner-state';

// The owner's page while a share runs (components/share/use-consent.ts): what it tells the server of itself and when
// it starts its location watch again (Page Visibility, `pagehide`/`pageshow`, the Permissions API).

/**
 * While `sharing`: the location watch runs (`startWatch`) and a heartbeat (`beat`) goes every LIVE_HEARTBEAT_MS while
 * the page is visible, since the buyer reads "offline" after a minute without a word. A hidden page shows `lost` and
 * says `hidden` (owner-presence.ts `sendPresence`); visible again, it restarts the watch and beats. A closed tab or a
 * page left for another says `hidden` before the browser stops it; back from the back-forward cache it beats again.
 * The permission revoked in the browser's settings is said at once (`permission_lost`, the watch stopped); granted
 * again, the watch starts. `setNow` gets the device's clock every 15 s, so the page sees the window end. All of it
 * stops, with the watch, when sharing ends or the page goes.
 */
export function useSharingPage({
  sharing,
  code,
  startWatch,
  stopWatch,
  beat,
  setGps,
  setNow,
}: {
  sharing: boolean;
  code: string;
  startWatch: () => void;
  stopWatch: () => void;
  beat: () => void;
  setGps: (gps: GpsState) => void;
  setNow: (now: number) => void;
}) {
  useEffect(() => {
    if (!sharing) return;
    startWatch();
    beat();
    // The buyer reads "offline" after a minute without a word: a heartbeat while the page is visible.
    const heartbeat = setInterval(() => {
      if (document.visibilityState === 'visible') beat();
    }, LIVE_HEARTBEAT_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        startWatch();
        beat();
      } else {
        setGps('lost');
        sendPresence(code, 'hidden');
      }
    };
    // A closed tab or a page left for another: said before the browser stops the page (no position can follow).
    const onPageHide = () => {
      setPageLeaving(true);
      sendPresence(code, 'hidden');
    };
    // Back from the browser's back-forward cache: the page is open again.
    const onPageShow = (e: PageTransitionEvent) => {
      setPageLeaving(false);
      if (e.persisted && document.visibilityState === 'visible') beat();
    };
    window.addEventListener('pageshow', onPageShow);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('pagehide', onPageHide);
    // The permission revoked in the browser's settings while sharing is said at once (Permissions API `change`).
    const stopPermissionWatch = onPermissionChange((state) => {
      if (state === 'denied' && document.visibilityState === 'visible') {
        setGps('denied');
        stopWatch();
        sendPresence(code, 'permission_lost');
      } else if (state === 'granted' && document.visibilityState === 'visible') {
        startWatch();
        beat();
      }
    });
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    return () => {
      stopPermissionWatch();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      clearInterval(heartbeat);
      clearInterval(tick);
      stopWatch();
    };
  }, [sharing, code, startWatch, stopWatch, beat, setGps, setNow]);
}

/**
 * Calls `onChange` with the geolocation permission's new state each time it changes (Permissions API `change`; where
 * the API is missing, never). Returns the stop, which also holds when the permission's status has not arrived yet.
 */
function onPermissionChange(onChange: (state: PermissionState) => void): () => void {
  let permission: PermissionStatus | null = null;
  const listener = () => {
    if (permission) onChange(permission.state);
  };
  let cancelled = false;
  navigator.permissions
    ?.query({ name: 'geolocation' })
    .then((status) => {
      if (cancelled) return;
      permission = status;
      status.addEventListener('change', listener);
    })
    .catch(() => undefined);
  return () => {
    cancelled = true;
    permission?.removeEventListener('change', listener);
  };
}
