'use client';
import { useCallback, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { ConsentAnswer, ConsentView, SharePrecision } from '@/lib/contracts/consent';
import { fixAt, shouldSendFix } from '@/lib/geo';
import { sendPresence } from './owner-presence';
import { GPS_OPTIONS, transient, type GpsState } from './owner-state';

// The phone's positions on the owner's consent page (components/share/use-consent.ts): what the browser's location
// does, the fixes sent at the share's precision, and the watch that sends them while sharing (W3C Geolocation API).

/** The last fix sent: where (degrees, WGS 84) and when (ms since the epoch, on the device's clock). */
export type SentFix = { latitude: number; longitude: number; at: number };

/**
 * The browser's location as the page shows it (`gps`), the accuracy of the last fix sent (m, rounded; null before
 * one) and whether sending fails (`sendFailing`), with their setters; the refs the callbacks read: `precisionRef`
 * (how precise the running share is: the server's word, or the owner's last choice) and `lastSentRef`.
 *
 * `onView` takes what a loaded view says of them (its share's precision; a location refused before, shown as
 * `denied` unless a share runs). `sendFreshFix` takes one high-accuracy fix now and sends it (a `PUT` of the consent
 * link) at the share's precision ("Refresh now" from the map, and each fix while resting); a failed fix or send is dropped, the next one
 * asked repeats it. An approximate share sends only its area cell, never the point (lib/geo.ts `fixAt`).
 */
export function usePositionSender(api: ApiClient, code: string) {
  const [gps, setGps] = useState<GpsState>('idle');
  const [accuracy, setAccuracy] = useState<number | null>(null);
  const [sendFailing, setSendFailing] = useState(false);
  const lastSentRef = useRef<SentFix | null>(null);
  const precisionRef = useRef<SharePrecision>('exact');

  const onView = useCallback((v: ConsentView) => {
    precisionRef.current = v.precision;
    if (v.locationDenied && v.status !== 'sharing' && v.status !== 'paused') setGps('denied');
  }, []);

  const sendFreshFix = useCallback(() => {
    navigator.geolocation?.getCurrentPosition(
      (pos) => {
        const sent = fixAt(pos.coords, precisionRef.current);
        lastSentRef.current = { latitude: pos.coords.latitude, longitude: pos.coords.longitude, at: Date.now() };
        api
          .call('PUT /spyContent/phoneLocation/{id}', { params: { id: code }, body: { action: 'position', ...sent } })
          .then(
            () => setAccuracy(Math.round(sent.accuracy)),
            () => undefined,
          );
      },
      () => undefined,
      GPS_OPTIONS,
    );
  }, [api, code]);

  return {
    gps,
    setGps,
    accuracy,
    setAccuracy,
    sendFailing,
    setSendFailing,
    lastSentRef,
    precisionRef,
    onView,
    sendFreshFix,
  };
}

/** What the watch works with: the consent link's `code`, the sender's state and refs, the page's rest. */
type WatchDeps = {
  api: ApiClient;
  code: string;
  sender: {
    setGps: Dispatch<SetStateAction<GpsState>>;
    setAccuracy: Dispatch<SetStateAction<number | null>>;
    setSendFailing: Dispatch<SetStateAction<boolean>>;
    lastSentRef: RefObject<SentFix | null>;
    precisionRef: RefObject<SharePrecision>;
  };
  isResting: () => boolean;
  applyNews: (answer: ConsentAnswer) => void;
  load: () => Promise<void>;
};

/**
 * The watch that sends the phone's fixes while sharing (`watchPosition`), started and stopped by the page.
 * `startWatch` (re)starts it unless the page rests (`isResting()`: no map open, the rest's own timer takes the fixes):
 * a fix is sent (`PUT` of the consent link) at most every 10 s unless the phone moved over 25 m (lib/geo.ts `shouldSendFix`), its
 * answer handed to `applyNews`; a failed send worth retrying is sent again with the next fix (`sendFailing`), a
 * refusal stops the watch and reloads the view (`load`). A refused permission on a visible page is told to the server
 * (owner-presence.ts `sendPresence`, `permission_lost`); no geolocation at all shows as `lost`.
 */
export function usePositionWatch({ api, code, sender, isResting, applyNews, load }: WatchDeps) {
  const { setGps, setAccuracy, setSendFailing, lastSentRef, precisionRef } = sender;
  const watchId = useRef<number | null>(null);

  const stopWatch = useCallback(() => {
    if (watchId.current !== null) navigator.geolocation.clearWatch(watchId.current);
    watchId.current = null;
  }, []);

  const startWatch = useCallback(() => {
    stopWatch();
    // Resting (no map open): the rest's own timer takes the fixes.
    if (isResting()) return;
    // Reported after the effect that starts the watch, not during it.
    if (!('geolocation' in navigator)) return void queueMicrotask(() => setGps('lost'));
    watchId.current = navigator.geolocation.watchPosition(
      (pos) => {
        setGps('ok');
        const fix = { latitude: pos.coords.latitude, longitude: pos.coords.longitude, at: Date.now() };
        if (!shouldSendFix(lastSentRef.current, { ...fix, accuracy: pos.coords.accuracy })) return;
        const previous = lastSentRef.current;
        lastSentRef.current = fix;
        // An approximate share: only the area cell leaves the phone, never the point (lib/geo.ts `fixAt`).
        const sent = fixAt(pos.coords, precisionRef.current);
        api
          .call('PUT /spyContent/phoneLocation/{id}', { params: { id: code }, body: { action: 'position', ...sent } })
          .then(
            (answer) => {
              applyNews(answer);
              setSendFailing(false);
              setAccuracy(Math.round(sent.accuracy));
            },
            (e: unknown) => {
              if (transient(e)) {
                // Not a dead end: the next fix is sent again.
                lastSentRef.current = previous;
                setSendFailing(true);
                return;
              }
              stopWatch();
              void load();
            },
          );
      },
      (e) => {
        setGps(e.code === e.PERMISSION_DENIED ? 'denied' : 'lost');
        // Only a visible page's refusal is a revoked permission; a page being hidden or closed said so already.
        if (e.code === e.PERMISSION_DENIED && document.visibilityState === 'visible')
          sendPresence(code, 'permission_lost');
      },
      GPS_OPTIONS,
    );
  }, [
    api,
    code,
    stopWatch,
    load,
    applyNews,
    isResting,
    lastSentRef,
    precisionRef,
    setGps,
    setAccuracy,
    setSendFailing,
  ]);

  return { startWatch, stopWatch };
}
