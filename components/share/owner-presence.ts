'use client';
import { useEffect, useState } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { PresenceAnswer } from '@/lib/contracts/consent';

// What the owner's page tells the server about itself while sharing, and the screen wake lock it may hold
// (the consent page's hooks use both: components/share/use-consent.ts, use-sharing-page.ts, use-position-fixes.ts).

/** Set on `pagehide`, cleared on `pageshow`: the page is going away (one consent page per document). */
let pageLeaving = false;

/** Marks the page as going away (`pagehide`) or open again (`pageshow`); see `sendPresence`. */
export function setPageLeaving(leaving: boolean): void {
  pageLeaving = leaving;
}

/**
 * Tells the server that the owner's page stops giving positions during a share (hidden, or the permission revoked) (`POST /spyContent/phoneLocation/{code}/presence`,
 * server/api/routes/live.ts): `navigator.sendBeacon`, which the browser delivers even while the page is being hidden
 * or closed (W3C Beacon); `fetch` with `keepalive` where it is missing. Fire and forget: the heartbeat repeats it.
 */
export function sendPresence(code: string, state: 'hidden' | 'permission_lost'): void {
  // A page being closed said 'hidden'; what its teardown reports after (a location watch failing) is not news.
  if (pageLeaving && state !== 'hidden') return;
  const url = `/api_f/v1/spyContent/phoneLocation/${encodeURIComponent(code)}/presence`;
  const body = JSON.stringify({ state });
  if (typeof navigator.sendBeacon === 'function') {
    if (navigator.sendBeacon(url, new Blob([body], { type: 'application/json' }))) return;
  }
  void fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(
    () => undefined,
  );
}

/**
 * The heartbeat of a visible page (`POST /spyContent/phoneLocation/{code}/presence` with `visible`, through the page's
 * API client): unlike a beacon it reads the answer, so the page learns the share's end and whether the requester asks
 * for more time (lib/contracts/consent.ts `PresenceAnswer`). Resolves to that answer, or to null when the page is
 * going away (nothing sent); rejects with the API client's error (ApiClientError: status 0 for no answer, the next
 * heartbeat repeats it; 409 when no share runs, and the page reloads its view).
 */
export async function sendHeartbeat(api: ApiClient, code: string): Promise<PresenceAnswer | null> {
  if (pageLeaving) return null;
  return api.call('POST /spyContent/phoneLocation/{id}/presence', { params: { id: code }, body: { state: 'visible' } });
}

/**
 * "Keep the screen on while sharing" (W3C Screen Wake Lock): off until the owner turns it on, released when sharing
 * ends, asked again when the page becomes visible (the browser releases it when the page is hidden). `supported` is
 * false where the browser has no `navigator.wakeLock` (the page then does not offer it).
 */
export function useWakeLock(sharing: boolean) {
  const [wanted, setWanted] = useState(false);
  const [supported] = useState(() => typeof navigator !== 'undefined' && 'wakeLock' in navigator);
  useEffect(() => {
    if (!sharing || !wanted || !supported) return;
    let sentinel: WakeLockSentinel | null = null;
    let ended = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible') return;
      navigator.wakeLock
        .request('screen')
        .then((s) => {
          if (ended) void s.release();
          else sentinel = s;
        })
        .catch(() => undefined);
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      ended = true;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release().catch(() => undefined);
    };
  }, [sharing, wanted, supported]);
  return { supported, on: wanted && sharing, set: setWanted };
}
