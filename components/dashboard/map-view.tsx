'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';
import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import type { LocationTrace } from '@/lib/api/types';
import { formatAgo, formatDateTime, formatTime } from '@/lib/intl-format';
import { useNow } from '../ui/use-now';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';
import { readUserInfo } from '@/lib/user-info';
import { SIGNED_OUT, SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';

const LeafletMap = dynamic(() => import('./leaflet-map'), { ssr: false });

/**
 * The subscriber's map of one request (`/map?id=`): polls `GET /gpsTrace/phoneLocation/{id}` every 3 s and shows
 * the newest GPS position with its accuracy circle (or, before any, the IP area); "waiting for the owner" until the
 * owner shares. Another user's id answers 404 and shows 'not found'.
 */
export function MapView() {
  const t = useTranslations('Map');
  const tDash = useTranslations('Dashboard');
  const now = useNow();
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const id = useSearchParams().get('id') ?? '';
  const [trace, setTrace] = useState<LocationTrace | null>(null);
  const [error, setError] = useState<string | null>(null);

  const step = useCallback(
    async (active: () => boolean) => {
      if (!id) {
        // No request named: nothing to ask the server.
        if (active()) setError(readUserInfo() ? t('notFound') : SIGNED_OUT);
        return false;
      }
      try {
        const next = await api.get<LocationTrace>(`/gpsTrace/phoneLocation/${encodeURIComponent(id)}`);
        if (active()) setTrace(next);
        return true;
      } catch (e) {
        const err = e as ApiClientError;
        const signedOut = err.code === SESSION_INVALID;
        const final = err.status === 404 || err.status === 422 || signedOut;
        if (active()) setError(signedOut ? SIGNED_OUT : final ? t('notFound') : err.message);
        return !final;
      }
    },
    [api, id, t],
  );
  usePolling(step);

  const back = (
    <Link href={`${prefixOf(locale)}/dashboard/locations/`} className="text-sm text-brand underline">
      {t('back')}
    </Link>
  );
  if (error && !trace)
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold">{t('heading')}</h1>
        {error === SIGNED_OUT ? (
          <SignInPrompt prefix={prefixOf(locale)} />
        ) : (
          <>
            <p role="alert">{error}</p>
            {back}
          </>
        )}
      </div>
    );
  if (!trace) return <p aria-busy="true">…</p>;
  // Positions arrive newest first; the track is drawn oldest to newest.
  const gps = trace.positions.filter((p) => p.source === 'gps');
  const latest = gps[0] ?? null;
  const ip = trace.positions.find((p) => p.source === 'ip') ?? null;
  const ipLabel = `${t('ipArea')}${ip?.label ? ` · ${ip.label}` : ''}`;
  const near = trace.place ? t('near', placeWords(trace.place, locale)) : null;
  return (
    <section className="space-y-4">
      {back}
      <h1 className="text-2xl font-bold">{t('title', { phone: formatPhone(trace.phone) })}</h1>
      {latest && (
        <p className="text-sm text-slate-700" data-testid="map-status">
          {/* The trace's status is the server's, which ends a window that ran out on every poll (settleByClock). */}
          {tDash(`status.${trace.status}`)} ·{' '}
          {tDash('lastPosition', { ago: formatAgo(latest.recordedAt, locale, now) })}
        </p>
      )}
      {!latest && (
        <p role="status" className="rounded-lg bg-slate-100 p-4">
          {trace.status === 'declined'
            ? t('declined')
            : trace.withdrawn
              ? t('withdrawn')
              : trace.status === 'expired' || trace.status === 'stopped'
                ? t('noPosition')
                : trace.locationDenied
                  ? t('locationDenied')
                  : t('waiting')}
        </p>
      )}
      {(latest || ip) && (
        <LeafletMap
          latest={latest}
          track={[...gps].reverse()}
          ip={ip}
          ipLabel={ipLabel}
          markerLabel={formatPhone(trace.phone)}
        />
      )}
      {latest && (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 text-sm" data-testid="position">
          <dt className="text-slate-600">{t('coordinates')}</dt>
          <dd data-testid="coordinates" className="font-mono">
            {latest.latitude.toFixed(5)}, {latest.longitude.toFixed(5)}
          </dd>
          {near && (
            <>
              <dt className="text-slate-600">{t('place')}</dt>
              <dd data-testid="place">{near}</dd>
            </>
          )}
          <dt className="text-slate-600">{t('source')}</dt>
          <dd>
            {t('sourceGps')} · {t('accuracy', { accuracy: Math.round(latest.accuracy ?? 0) })}
          </dd>
          <dt className="text-slate-600">{t('time')}</dt>
          <dd>{t('updated', { time: formatDateTime(latest.recordedAt, locale) })}</dd>
        </dl>
      )}
      {ip && (
        <p className="text-sm text-amber-800" data-testid="ip-area">
          {t('ipApprox', { accuracy: ip.accuracy ? Math.round(ip.accuracy / 1000) : '—' })}
          {ip.label ? ` · ${ip.label}` : ''}
        </p>
      )}
      {gps.length > 1 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-700">
            {t('fixes')} ({gps.length})
          </summary>
          <ol className="mt-2 space-y-1 font-mono" data-testid="fixes">
            {gps.map((p) => (
              <li key={p.recordedAt + p.latitude}>
                {formatTime(p.recordedAt, locale)} · {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)} · ±
                {Math.round(p.accuracy ?? 0)} m
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

/**
 * The words of a nearest place for `Map.near`: "Sol, Madrid, Spain" (the country's name in `locale`, Intl.DisplayNames)
 * and its distance ("800 m", "1.2 km"), from the trace's `place` (metres).
 */
function placeWords(place: NonNullable<LocationTrace['place']>, locale: string): { place: string; distance: string } {
  const country = new Intl.DisplayNames([locale], { type: 'region' }).of(place.country) ?? place.country;
  const parts = [place.name, place.region, country].filter((part, i, all) => part && all.indexOf(part) === i);
  const km = place.distanceM >= 1000;
  const distance = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: km ? 'kilometer' : 'meter',
    maximumFractionDigits: km ? 1 : 0,
  }).format(km ? place.distanceM / 1000 : Math.max(10, Math.round(place.distanceM / 10) * 10));
  return { place: parts.join(', '), distance };
}
