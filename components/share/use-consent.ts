'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { ConsentAnswer, ConsentView, PresenceAnswer, SharePrecision } from '@/lib/contracts/consent';
import { fixAt, shouldSendFix } from '@/lib/geo';
import { LIVE_HEARTBEAT_MS, REST_FIX_MS, REST_GRACE_MS } from '@/lib/live-state';
import { sendHeartbeat, sendPresence, setPageLeaving, useWakeLock } from './owner-presence';
import { GPS_OPTIONS, RETRY_MS, stateOf, transient, type GpsState, type OwnerState } from './owner-state';

export type { GpsState, OwnerState };

/**
 * The consent page's state machine (docs/rules.md#security). Loads the view for `code` (network
 * errors retried with backoff, shown as `reconnecting`, never as an invalid link); Share asks the browser first and
 * sends the share with that first fix (nothing is stored before); while sharing, `watchPosition` sends fixes at most
 * every 10 s unless the phone moved over 25 m, a failed send is retried with the next fix, and the watch restarts when
 * the page becomes visible again. Once no buyer's map has been open for REST_GRACE_MS the GPS rests and one fix is
 * taken every REST_FIX_MS;
 * a "Refresh now" from the map gets one high-accuracy fix (server/services/locate/watchers.ts). When the window ends on
 * the device's clock the state turns `ended`; a refusal from the server (409/410) reloads the view so the page shows
 * what the server says.
 */
export function useConsent(api: ApiClient, code: string) {
  const [view, setView] = useState<ConsentView | null>(null);
  const [failed, setFailed] = useState<'invalid' | 'reconnecting' | null>(code ? null : 'invalid');
  const [gps, setGps] = useState<GpsState>('idle');
  const [accuracy, setAccuracy] = useState<number | null>(null);
  const [sendFailing, setSendFailing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const watchId = useRef<number | null>(null);
  const lastSent = useRef<{ latitude: number; longitude: number; at: number } | null>(null);
  /** How precise the running share is (the watch's callback reads it): the server's word, or the owner's last choice. */
  const precision = useRef<SharePrecision>('exact');
  /** No buyer's map is open: the GPS rests and a fix is taken every REST_FIX_MS (the ref for the callbacks). */
  const [resting, setResting] = useState(false);
  const restingRef = useRef(false);
  /** Since when (ms) the answers say no map is open; null while one is. */
  const unwatchedSince = useRef<number | null>(null);
  /** The last "Refresh now" answered, so that each is answered once. */
  const servedWant = useRef<string | null>(null);
  const path = `/spyContent/phoneLocation/${encodeURIComponent(code)}`;

  /** One high-accuracy fix now, sent at the share's precision: "Refresh now", and each fix while resting. */
  const sendFreshFix = useCallback(() => {
    navigator.geolocation?.getCurrentPosition(
      (pos) => {
        const sent = fixAt(pos.coords, precision.current);
        lastSent.current = { latitude: pos.coords.latitude, longitude: pos.coords.longitude, at: Date.now() };
        api.put(path, { action: 'position', ...sent }).then(
          () => setAccuracy(Math.round(sent.accuracy)),
          () => undefined,
        );
      },
      () => undefined,
      GPS_OPTIONS,
    );
  }, [api, path]);

  /**
   * What an answer says of the running share goes into the page at once: its end and the requester's ask (the view),
   * whether a map is open (the page rests while none is: `resting`), and a "Refresh now" not served yet (one fresh
   * fix each).
   */
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
    [sendFreshFix],
  );

  const stopWatch = useCallback(() => {
    if (watchId.current !== null) navigator.geolocation.clearWatch(watchId.current);
    watchId.current = null;
  }, []);

  const load = useCallback(async (): Promise<void> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const v = await api.get<ConsentView>(`/spyContent/consent/${encodeURIComponent(code)}`);
        setFailed(null);
        setView(v);
        precision.current = v.precision;
        if (v.locationDenied && v.status !== 'sharing' && v.status !== 'paused') setGps('denied');
        return;
      } catch (e) {
        if (!transient(e)) return setFailed('invalid');
        setFailed('reconnecting');
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }, [api, code]);

  const startWatch = useCallback(() => {
    stopWatch();
    // Resting (no map open): the rest's own timer takes the fixes.
    if (restingRef.current) return;
    // Reported after the effect that starts the watch, not during it.
    if (!('geolocation' in navigator)) return void queueMicrotask(() => setGps('lost'));
    watchId.current = navigator.geolocation.watchPosition(
      (pos) => {
        setGps('ok');
        const fix = { latitude: pos.coords.latitude, longitude: pos.coords.longitude, at: Date.now() };
        if (!shouldSendFix(lastSent.current, { ...fix, accuracy: pos.coords.accuracy })) return;
        const previous = lastSent.current;
        lastSent.current = fix;
        // An approximate share: only the area cell leaves the phone, never the point (lib/geo.ts `fixAt`).
        const sent = fixAt(pos.coords, precision.current);
        api.put<ConsentAnswer>(path, { action: 'position', ...sent }).then(
          (answer) => {
            applyNews(answer);
            setSendFailing(false);
            setAccuracy(Math.round(sent.accuracy));
          },
          (e: unknown) => {
            if (transient(e)) {
              // Not a dead end: the next fix is sent again.
              lastSent.current = previous;
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
  }, [api, path, code, stopWatch, load, applyNews]);

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
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load sets state only after its first await
    if (code) void load();
    return stopWatch;
  }, [code, load, stopWatch]);

  const sharing = view?.status === 'sharing' || view?.status === 'paused';
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
    let permission: PermissionStatus | null = null;
    const onPermission = () => {
      if (permission?.state === 'denied' && document.visibilityState === 'visible') {
        setGps('denied');
        stopWatch();
        sendPresence(code, 'permission_lost');
      } else if (permission?.state === 'granted' && document.visibilityState === 'visible') {
        startWatch();
        beat();
      }
    };
    let cancelled = false;
    navigator.permissions
      ?.query({ name: 'geolocation' })
      .then((status) => {
        if (cancelled) return;
        permission = status;
        status.addEventListener('change', onPermission);
      })
      .catch(() => undefined);
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    return () => {
      cancelled = true;
      permission?.removeEventListener('change', onPermission);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      clearInterval(heartbeat);
      clearInterval(tick);
      stopWatch();
    };
  }, [sharing, code, startWatch, stopWatch, beat]);

  // No map open: the GPS rests, one fix every REST_FIX_MS while the page is visible; a map opened starts the watch again.
  useEffect(() => {
    if (!sharing || !resting) return;
    stopWatch();
    const rest = setInterval(() => {
      if (document.visibilityState === 'visible') sendFreshFix();
    }, REST_FIX_MS);
    return () => {
      clearInterval(rest);
      if (!restingRef.current && document.visibilityState === 'visible') {
        lastSent.current = null;
        startWatch();
      }
    };
  }, [sharing, resting, stopWatch, startWatch, sendFreshFix]);

  const wakeLock = useWakeLock(sharing);

  /**
   * Share for `minutes` at precision `chosen` (exact, or an approximate area: only its cell leaves the phone): the
   * browser's permission and first fix come first; the consent is sent with that fix.
   */
  const share = (minutes: number, chosen: SharePrecision = 'exact') => {
    setBusy(true);
    setError(null);
    const refused = () => {
      setGps('denied');
      setBusy(false);
      // Nothing is stored; the buyer only learns that the location was not allowed.
      api.put(path, { action: 'denied' }).catch(() => undefined);
    };
    if (!('geolocation' in navigator)) return refused();
    setGps('waiting');
    navigator.geolocation.getCurrentPosition(
      async (pos) => {
        const fix = { latitude: pos.coords.latitude, longitude: pos.coords.longitude };
        const sent = fixAt(pos.coords, chosen);
        try {
          await api.put<ConsentAnswer>(path, { action: 'share', minutes, precision: chosen, ...sent });
          precision.current = chosen;
          setAccuracy(Math.round(sent.accuracy));
          lastSent.current = { ...fix, at: Date.now() };
          setGps('ok');
          await load();
        } catch (e) {
          setGps('idle');
          setError((e as Error).message);
        } finally {
          setBusy(false);
        }
      },
      (e) => (e.code === e.PERMISSION_DENIED ? refused() : (setGps('lost'), setBusy(false))),
      GPS_OPTIONS,
    );
  };

  /**
   * Decline, stop, or turn the running share into an approximate one (`approximate`: from the next fix on only area
   * cells are sent; back to exact needs a new share); the view is reloaded so the page shows the server's state.
   */
  const act = async (action: 'decline' | 'stop' | 'approximate') => {
    setBusy(true);
    setError(null);
    try {
      await api.put<ConsentAnswer>(path, { action });
      if (action === 'approximate') {
        precision.current = 'approximate';
        lastSent.current = null;
      } else stopWatch();
      await load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  /**
   * More time for the running share: `extend` adds `minutes` (15 or 60; the server stops at 8 hours from now),
   * `keep_end` answers the requester's ask with no. The answer's new end and ask go into the view at once. Resolves to
   * the API's localized message when refused, else null.
   */
  const moreTime = async (action: { action: 'extend'; minutes: number } | { action: 'keep_end' }) => {
    setBusy(true);
    setError(null);
    try {
      applyNews(await api.put<ConsentAnswer>(path, action));
    } catch (e) {
      setError((e as Error).message);
      if (!transient(e)) await load();
    } finally {
      setBusy(false);
    }
  };

  /**
   * Report abuse (in any state, after a Decline too) with the owner's optional `reason` (sent only when not blank; the
   * API holds it to the note's rules: at most 140 characters, no links or phone numbers). Resolves to null once the
   * report is recorded and the view reloaded, or to the API's localized message when it was refused (a 422 for the
   * reason, a network error): the report dialog shows it and stays open.
   */
  const report = async (reason: string): Promise<string | null> => {
    setBusy(true);
    setError(null);
    try {
      await api.put<ConsentAnswer>(path, { action: 'report', ...(reason.trim() ? { reason } : {}) });
      stopWatch();
      await load();
      return null;
    } catch (e) {
      return (e as Error).message;
    } finally {
      setBusy(false);
    }
  };

  const state: OwnerState = failed ?? (view ? stateOf(view, now, gps) : 'loading');
  return { state, view, gps, accuracy, sendFailing, error, busy, share, act, moreTime, report, wakeLock, now, resting };
}
