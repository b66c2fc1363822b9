'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsentView, RequestStatus } from '@/lib/api/types';
import { formatDate } from '@/lib/format';
import { shouldSendFix } from '@/lib/geo';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useApi } from '../ui/use-api';
import { Link } from '@/components/ui/link';

type GpsState = 'idle' | 'waiting' | 'ok' | 'denied' | 'lost';

/** Geolocation options: a fresh, high-accuracy fix; the prompt and the first fix may take a while (ms). */
const GPS_OPTIONS: PositionOptions = { enableHighAccuracy: true, maximumAge: 0, timeout: 60_000 };
type Dialog = 'stop' | 'report' | null;

/**
 * The phone owner's consent page (ARCHITECTURE §1, §6, §8; ISSUE 5): says who asks (the service and the requester's
 * masked e-mail), what is shared (GPS position with its accuracy, an approximate IP location), for how long, and how
 * to stop. Share and Decline are equally prominent; Report abuse ends the request and stops all SMS to the number.
 * Tapping Share asks the browser first (issue 12 §3): only when it gives a fix is the share sent, carrying that fix,
 * and only then does the server record the consent and store anything. A refused or unavailable location stores
 * nothing (`denied` tells the buyer "location not allowed"), explains how to allow it and offers Share again. While
 * sharing, `watchPosition` sends fixes to `PUT /spyContent/phoneLocation/{code}` at most every 10 s unless the phone
 * moved over 25 m. Then the thank-you screen: Stop sharing (confirm dialog) → stopped → Share again or Visit website.
 */
export function ConsentPanel() {
  const t = useTranslations('Consent');
  const prefix = prefixOf(useLocale() as AppLocale);
  const api = useApi();
  const code = useSearchParams().get('c') ?? '';
  const [view, setView] = useState<ConsentView | null | 'invalid'>(code ? null : 'invalid');
  const [status, setStatus] = useState<RequestStatus | 'reported' | null>(null);
  const [sharingUntil, setSharingUntil] = useState<string | null>(null);
  const [minutes, setMinutes] = useState(60);
  const [gps, setGps] = useState<GpsState>('idle');
  const [accuracy, setAccuracy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const watchId = useRef<number | null>(null);
  const lastSent = useRef<{ latitude: number; longitude: number; at: number } | null>(null);
  const path = `/spyContent/phoneLocation/${encodeURIComponent(code)}`;

  const stopWatch = () => {
    if (watchId.current !== null) navigator.geolocation.clearWatch(watchId.current);
    watchId.current = null;
  };

  const startWatch = useCallback(() => {
    if (!('geolocation' in navigator)) return setGps('lost');
    watchId.current = navigator.geolocation.watchPosition(
      (pos) => {
        setGps('ok');
        const fix = { latitude: pos.coords.latitude, longitude: pos.coords.longitude, at: Date.now() };
        if (!shouldSendFix(lastSent.current, fix)) return;
        lastSent.current = fix;
        api.put(path, { action: 'position', ...fix, accuracy: pos.coords.accuracy }).then(
          () => setAccuracy(Math.round(pos.coords.accuracy)),
          (e: Error) => {
            setError(e.message);
            stopWatch();
          },
        );
      },
      () => setGps('lost'),
      GPS_OPTIONS,
    );
  }, [api, path]);

  /** Share: the browser's permission and first fix come first; the consent is sent with that fix. */
  const share = () => {
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
        try {
          const result = await api.put<{ status: RequestStatus }>(path, {
            action: 'share',
            minutes,
            ...fix,
            accuracy: pos.coords.accuracy,
          });
          setStatus(result.status);
          setGps('ok');
          setAccuracy(Math.round(pos.coords.accuracy));
          setSharingUntil(new Date(Date.now() + minutes * 60_000).toISOString());
          lastSent.current = { ...fix, at: Date.now() };
          startWatch();
        } catch (e) {
          setGps('idle');
          setError((e as Error).message);
        } finally {
          setBusy(false);
        }
      },
      refused,
      GPS_OPTIONS,
    );
  };

  useEffect(() => {
    if (!code) return;
    api.get<ConsentView>(`/spyContent/consent/${encodeURIComponent(code)}`).then(
      (v) => {
        setView(v);
        setStatus(v.status);
        setSharingUntil(v.sharingUntil);
        if (v.status === 'sharing') startWatch();
        else if (v.locationDenied) setGps('denied');
      },
      () => setView('invalid'),
    );
    return stopWatch;
  }, [api, code, startWatch]);

  const act = async (action: 'decline' | 'stop' | 'report') => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.put<{ status: RequestStatus }>(path, { action });
      setStatus(action === 'report' ? 'reported' : result.status);
      stopWatch();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (view === null) return <p aria-busy="true">…</p>;
  if (view === 'invalid')
    return (
      <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold">{t('title')}</h1>
        <p role="alert" className="mt-3 text-lg">
          {t('invalid')}
        </p>
      </section>
    );

  const button = 'flex-1 rounded-xl border-2 px-4 py-4 text-lg font-semibold disabled:opacity-60';
  const canAnswer = status === 'opened' || status === 'queued' || status === 'sms_sent' || status === 'stopped';
  return (
    <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="mt-3 text-slate-800">{t('who', { product: view.product, requester: view.requester })}</p>
      <p className="mt-3 text-slate-700">{t('what')}</p>
      {error && (
        <p role="alert" className="mt-3 text-red-700">
          {error}
        </p>
      )}

      {status === 'expired' && (
        <p role="status" className="mt-6 font-semibold">
          {view.withdrawn ? t('withdrawn') : t('expired')}
        </p>
      )}
      {status === 'declined' && (
        <p role="status" className="mt-6 font-semibold">
          {t('declined')}
        </p>
      )}
      {status === 'reported' && (
        <p role="status" className="mt-6 font-semibold">
          {t('reported')}
        </p>
      )}

      {canAnswer && (
        <>
          {status === 'stopped' && (
            <p role="status" className="mt-6 font-semibold">
              {t('stopped')}
            </p>
          )}
          <fieldset className="mt-6">
            <legend className="text-sm font-medium text-slate-800">{t('duration')}</legend>
            <div className="mt-2 flex gap-2">
              {view.presets.map((m) => (
                <label
                  key={m}
                  className={`flex-1 cursor-pointer rounded-lg border px-3 py-2 text-center text-sm has-[:focus-visible]:ring-2 ${minutes === m ? 'border-brand bg-brand-light' : 'border-slate-300'}`}
                >
                  <input
                    type="radio"
                    name="duration"
                    value={m}
                    checked={minutes === m}
                    onChange={() => setMinutes(m)}
                    className="sr-only"
                  />
                  {m === 15 ? t('minutes15') : m === 60 ? t('hour1') : t('hours8')}
                </label>
              ))}
            </div>
          </fieldset>
          <p className="mt-3 text-sm text-slate-600">{t('stopHow')}</p>
          {gps === 'waiting' && (
            <p role="status" className="mt-4">
              {t('waitingGps')}
            </p>
          )}
          {gps === 'denied' && (
            <div role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="location-denied">
              <p className="font-semibold">{t('gpsDenied')}</p>
              <p className="mt-1 text-sm">{t('deniedHelp')}</p>
            </div>
          )}
          <div className="mt-6 flex gap-3">
            <button
              type="button"
              disabled={busy}
              data-btn-id="consent_share"
              onClick={share}
              className={`${button} border-brand text-brand`}
            >
              {gps === 'denied' || status === 'stopped' ? t('shareAgain') : t('share')}
            </button>
            {status === 'stopped' ? (
              <Link href={`${prefix}/`} className={`${button} border-slate-700 text-center text-slate-800`}>
                {t('visitWebsite')}
              </Link>
            ) : (
              <button
                type="button"
                disabled={busy}
                onClick={() => act('decline')}
                className={`${button} border-slate-700 text-slate-800`}
              >
                {t('decline')}
              </button>
            )}
          </div>
        </>
      )}

      {status === 'sharing' && (
        <div className="mt-6 space-y-3" role="status">
          <p className="font-semibold text-green-800">{t('sharing')}</p>
          {sharingUntil && <p>{t('until', { time: formatDate(sharingUntil, 'H:M') })}</p>}
          {gps === 'lost' && (
            <>
              <p>{t('gpsLost')}</p>
              <p className="text-sm text-slate-700">{t('deniedHelp')}</p>
            </>
          )}
          {accuracy !== null && <p data-testid="last-sent">{t('lastSent', { accuracy })}</p>}
          <p className="text-sm text-slate-600">{t('pauseNote')}</p>
          <button
            type="button"
            disabled={busy}
            onClick={() => setDialog('stop')}
            className={`${button} w-full border-slate-700 text-slate-800`}
          >
            {t('stop')}
          </button>
        </div>
      )}

      {status !== 'reported' && status !== 'expired' && (
        <button type="button" onClick={() => setDialog('report')} className="mt-6 text-sm text-red-700 underline">
          {t('report')}
        </button>
      )}

      <ConfirmDialog
        open={dialog !== null}
        message={dialog === 'report' ? t('reportConfirm', { product: view.product }) : t('stopConfirm')}
        confirmLabel={t('confirm')}
        cancelLabel={t('cancel')}
        onClose={(confirmed) => {
          const which = dialog;
          setDialog(null);
          if (confirmed && which) void act(which);
        }}
      />
    </section>
  );
}
