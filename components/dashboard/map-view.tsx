'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';
import { type Liveness, liveness } from '@/lib/live-state';
import type { LocationTrace, Position } from '@/lib/contracts/locations';
import { formatAgo, formatDateTime, formatTime } from '@/lib/intl-format';
import { useNow } from '../ui/use-now';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { useApi } from '../ui/use-api';
import type { LiveTransport } from './use-live-trace';
import { useMapTrace } from './use-map-trace';
import { ShareEnd } from './share-end';
import { LIVE_TONE, placeWords } from './live-words';
import { SIGNED_OUT, SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';

/** The words for a share that still runs: its end may move and more time may be asked (./share-end.tsx). */
const RUNNING: ReturnType<typeof liveness>[] = ['live', 'paused', 'permission_lost', 'offline'];

const LeafletMap = dynamic(() => import('./leaflet-map'), { ssr: false });

/**
 * The subscriber's map of one request (`/map?id=`): kept current by the live stream (use-live-trace.ts; polling
 * `GET /gpsTrace/phoneLocation/{id}` every 3 s where the stream fails), it shows the newest GPS position with its
 * accuracy circle and the trail of this share (or, before any, the IP area), and always how fresh it is: the last
 * position's age, ticking every second, and how live the share is (lib/live-state.ts: live, paused, permission lost,
 * offline, stopped by the owner, time ran out, declined) with, while the share runs, when it ends and "Ask for more
 * time" (./share-end.tsx). When the owner deleted what they had shared (safety centre,
 * `erased`), the empty map says so instead of "not found". The map frames the trail and the accuracy circle and
 * follows it until the buyer moves it by hand (Recentre brings it back); without tiles it is the built-in map with
 * the gazetteer's place names, and says so (leaflet-map.tsx). Another user's id answers 404 and shows 'not found'.
 */
export function MapView() {
  const t = useTranslations('Map');
  const now = useNow(1000);
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const { trace, transport, error } = useMapTrace(api);

  const back = (
    <Link href={localePath(locale, '/dashboard/locations/')} className="text-sm text-brand underline">
      {t('back')}
    </Link>
  );
  if (error && !trace)
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold">{t('heading')}</h1>
        {error === SIGNED_OUT ? (
          <SignInPrompt />
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
  // An approximate share shows its area alone: no point, no trail, no coordinates (lib/geo.ts `areaCell`).
  const area = latest?.precision === 'approximate';
  const points = area ? [] : gps.filter((p) => p.precision === 'exact');
  const ip = trace.positions.find((p) => p.source === 'ip') ?? null;
  const ipLabel = `${t('ipArea')}${ip?.label ? ` · ${ip.label}` : ''}`;
  const near = trace.place ? t('near', placeWords(trace.place, locale, area)) : null;
  const live = liveness(trace, now);
  return (
    <section className="space-y-4">
      {back}
      <h1 className="text-2xl font-bold">{t('title', { phone: formatPhone(trace.phone) })}</h1>
      <MapStatus live={live} latest={latest} now={now} transport={transport} trail={points.length > 1} />
      <ShareEnd trace={trace} running={RUNNING.includes(live)} api={api} />
      {!latest && (
        <p role="status" className="rounded-lg bg-slate-100 p-4">
          {t(noFixWords(trace))}
        </p>
      )}
      {(latest || ip) && (
        <LeafletMap
          latest={latest}
          track={[...points].reverse()}
          ip={ip}
          ipLabel={ipLabel}
          markerLabel={formatPhone(trace.phone)}
          areaLabel={t('areaLabel')}
          texts={{ recentre: t('recentre'), offlineBase: t('offlineBase') }}
        />
      )}
      {latest && <PositionFacts latest={latest} area={area} near={near} />}
      {ip && (
        <p className="text-sm text-amber-800" data-testid="ip-area">
          {t('ipApprox', { accuracy: ip.accuracy ? Math.round(ip.accuracy / 1000) : '—' })}
          {ip.label ? ` · ${ip.label}` : ''}
        </p>
      )}
      {points.length > 1 && <FixList points={points} />}
    </section>
  );
}

/**
 * Why the map has no GPS fix to show, as its `Map` message key: the owner deleted what they shared, declined, the
 * request was withdrawn, it ended without a position, the owner's browser refused the location, or it is awaited.
 */
function noFixWords(
  trace: LocationTrace,
): 'erased' | 'declined' | 'withdrawn' | 'noPosition' | 'locationDenied' | 'waiting' {
  if (trace.erased) return 'erased';
  if (trace.status === 'declined') return 'declined';
  if (trace.withdrawn) return 'withdrawn';
  if (trace.status === 'expired' || trace.status === 'stopped') return 'noPosition';
  return trace.locationDenied ? 'locationDenied' : 'waiting';
}

/**
 * The map's freshness line, read out politely as it changes: how live the share is (`live`, lib/live-state.ts), the
 * age of the newest GPS fix (`latest`) at `now` (ms since the epoch) or that none came yet, and how the map gets its
 * data (`transport`), with a note on the trail when `trail` (more than one exact fix) is drawn.
 */
function MapStatus({
  live,
  latest,
  now,
  transport,
  trail,
}: {
  live: Liveness;
  latest: Position | null;
  now: number;
  transport: LiveTransport;
  trail: boolean;
}) {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  return (
    <p className="text-sm text-slate-700" data-testid="map-status" aria-live="polite">
      <span data-testid="liveness" data-state={live} className={LIVE_TONE[live]}>
        {t(`live.${live}`)}
      </span>{' '}
      ·{' '}
      <span data-testid="fix-age">
        {latest ? t('lastFix', { ago: formatAgo(latest.recordedAt, locale, now, { seconds: true }) }) : t('noFixYet')}
      </span>
      <span className="block text-xs text-slate-500">
        {transport === 'polling' ? t('transportPolling') : t('transportStream')}
        {trail ? ` ${t('trailNote')}` : ''}
      </span>
    </p>
  );
}

/**
 * What the newest GPS fix (`latest`) says, as a definition list: its coordinates (degrees, 5 decimals) or, for an
 * approximate share (`area`), only that it is an area; the nearest place's words (`near`) when known; its source with
 * the accuracy in metres; and its time in the reader's zone.
 */
function PositionFacts({ latest, area, near }: { latest: Position; area: boolean; near: string | null }) {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 text-sm" data-testid="position">
      {area ? (
        <>
          <dt className="text-slate-600">{t('area')}</dt>
          <dd data-testid="area">{t('areaNote')}</dd>
        </>
      ) : (
        <>
          <dt className="text-slate-600">{t('coordinates')}</dt>
          <dd data-testid="coordinates" className="font-mono">
            {latest.latitude.toFixed(5)}, {latest.longitude.toFixed(5)}
          </dd>
        </>
      )}
      {near && (
        <>
          <dt className="text-slate-600">{t('place')}</dt>
          <dd data-testid="place">{near}</dd>
        </>
      )}
      <dt className="text-slate-600">{t('source')}</dt>
      <dd>
        {area
          ? t('sourceArea')
          : `${t('sourceGps')} · ${t('accuracy', { accuracy: Math.round(latest.accuracy ?? 0) })}`}
      </dd>
      <dt className="text-slate-600">{t('time')}</dt>
      <dd>{t('updated', { time: formatDateTime(latest.recordedAt, locale) })}</dd>
    </dl>
  );
}

/**
 * The exact GPS fixes of this share (`points`, newest first), folded under "Fixes (n)": each one's time, coordinates
 * (degrees, 5 decimals) and accuracy in metres.
 */
function FixList({ points }: { points: Position[] }) {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-700">
        {t('fixes')} ({points.length})
      </summary>
      <ol className="mt-2 space-y-1 font-mono" data-testid="fixes">
        {points.map((p) => (
          <li key={p.recordedAt + p.latitude}>
            {formatTime(p.recordedAt, locale)} · {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)} · ±
            {Math.round(p.accuracy ?? 0)} m
          </li>
        ))}
      </ol>
    </details>
  );
}
