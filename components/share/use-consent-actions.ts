'use client';
import { useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { ConsentAnswer, SharePrecision } from '@/lib/contracts/consent';
import { fixAt } from '@/lib/geo';
import { GPS_OPTIONS, transient, type GpsState } from './owner-state';
import type { SentFix } from './use-position-fixes';

// What the owner does on the consent page (components/share/use-consent.ts): share, decline, stop, go approximate,
// ask for more time or keep the end, and report abuse, each a `PUT` of the consent link (docs/rules.md#security).

/** What the owner's actions work with: the consent link's `code`, the page's view and location watch. */
type ActionDeps = {
  api: ApiClient;
  code: string;
  /** Reloads the view, so the page shows the server's state. */
  load: () => Promise<void>;
  stopWatch: () => void;
  applyNews: (answer: ConsentAnswer) => void;
  setGps: Dispatch<SetStateAction<GpsState>>;
  setAccuracy: Dispatch<SetStateAction<number | null>>;
  precisionRef: RefObject<SharePrecision>;
  lastSentRef: RefObject<SentFix | null>;
};

/** The setters of the state that every action shows: one runs at a time (`busy`), and its last error message. */
type ActionState = {
  setBusy: Dispatch<SetStateAction<boolean>>;
  setError: Dispatch<SetStateAction<string | null>>;
};

/**
 * The owner's actions with `busy` (one runs) and `error` (the API's localized message of the last one refused, or
 * null): `share` (shareAction), `act`, `moreTime` and `report` (answerActions).
 */
export function useConsentActions(deps: ActionDeps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const state = { setBusy, setError };
  return { busy, error, share: shareAction(deps, state), ...answerActions(deps, state) };
}

/**
 * Share for `minutes` at precision `chosen` (exact, or an approximate area: only its cell leaves the phone): the
 * browser's permission and first fix come first; the consent is sent with that fix (nothing is stored before). A
 * refused permission shows `denied` and tells the server only that the location was not allowed.
 */
function shareAction(
  { api, code, load, setGps, setAccuracy, precisionRef, lastSentRef }: ActionDeps,
  { setBusy, setError }: ActionState,
) {
  return (minutes: number, chosen: SharePrecision = 'exact') => {
    setBusy(true);
    setError(null);
    const refused = () => {
      setGps('denied');
      setBusy(false);
      // Nothing is stored; the buyer only learns that the location was not allowed.
      api
        .call('PUT /spyContent/phoneLocation/{id}', { params: { id: code }, body: { action: 'denied' } })
        .catch(() => undefined);
    };
    if (!('geolocation' in navigator)) return refused();
    setGps('waiting');
    navigator.geolocation.getCurrentPosition(
      async (pos) => {
        const fix = { latitude: pos.coords.latitude, longitude: pos.coords.longitude };
        const sent = fixAt(pos.coords, chosen);
        try {
          await api.call('PUT /spyContent/phoneLocation/{id}', {
            params: { id: code },
            body: { action: 'share', minutes, precision: chosen, ...sent },
          });
          precisionRef.current = chosen;
          setAccuracy(Math.round(sent.accuracy));
          lastSentRef.current = { ...fix, at: Date.now() };
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
}

/** The owner's answers once the page is open: `act`, `moreTime` and `report`, each described where it is made. */
function answerActions(
  { api, code, load, stopWatch, applyNews, precisionRef, lastSentRef }: ActionDeps,
  { setBusy, setError }: ActionState,
) {
  /**
   * Decline, stop, or turn the running share into an approximate one (`approximate`: from the next fix on only area
   * cells are sent; back to exact needs a new share); the view is reloaded so the page shows the server's state.
   */
  const act = async (action: 'decline' | 'stop' | 'approximate') => {
    setBusy(true);
    setError(null);
    try {
      await api.call('PUT /spyContent/phoneLocation/{id}', { params: { id: code }, body: { action } });
      if (action === 'approximate') {
        precisionRef.current = 'approximate';
        lastSentRef.current = null;
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
      applyNews(await api.call('PUT /spyContent/phoneLocation/{id}', { params: { id: code }, body: action }));
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
      await api.call('PUT /spyContent/phoneLocation/{id}', {
        params: { id: code },
        body: { action: 'report', ...(reason.trim() ? { reason } : {}) },
      });
      stopWatch();
      await load();
      return null;
    } catch (e) {
      return (e as Error).message;
    } finally {
      setBusy(false);
    }
  };

  return { act, moreTime, report };
}
