'use client';
import dynamic from 'next/dynamic';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { IpInfo } from '@/lib/contracts/lookups';
import { regionName } from '@/lib/intl-format';
import { whenIdleAfterLoad } from '@/lib/when-idle';
import { usePublicApi } from '../ui/use-public-api';
import { LookupForm } from './lookup-form';

const LeafletMap = dynamic(() => import('../dashboard/leaflet-map'), { ssr: false });

/** An IP lookup's answer; `mine`: it is the visitor's own address. */
type IpAnswer = IpInfo & { mine: boolean };

/**
 * The IP lookup's state and calls: `info`, the visitor's own address first (asked once the page is idle), then the
 * answer for each address the visitor looks up through `lookup` (an empty string asks for the own address again),
 * which resolves to an error message to show under the field, or null. `error`: the own address's failure, until a
 * lookup succeeds. Answers come from `GET /other/ipInfo`.
 */
function useIpLookup() {
  const get = usePublicApi();
  const [info, setInfo] = useState<IpAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The visitor has made a lookup: the own address, arriving later, neither replaces its result nor adds an error. */
  const looked = useRef(false);

  // The visitor's own address, asked once the page has loaded and is idle: the answer's render then never lands in
  // the middle of hydration on a slow phone (bench/lighthouse-report.md). Its room below is reserved meanwhile.
  useEffect(
    () =>
      whenIdleAfterLoad(() =>
        get('GET /other/ipInfo').then(
          (result) => !looked.current && setInfo({ ...result, mine: true }),
          (e: Error) => !looked.current && setError(e.message),
        ),
      ),
    [get],
  );

  const lookup = async (ip: string) => {
    looked.current = true;
    try {
      setInfo({ ...(await get('GET /other/ipInfo', { query: ip ? { ip } : {} })), mine: !ip });
      setError(null);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  return { info, error, lookup };
}

/**
 * The IP lookup of `/ip-tracker`: the visitor's own address first, or one typed in, from
 * `GET /other/ipInfo` (offline DB-IP Lite): country, region, city and the accuracy radius, with the area on a small
 * map (a dashed circle; 5 km when the database gives no radius) and the statement that an IP shows an area only.
 */
export function IpLookup() {
  const { info, error, lookup } = useIpLookup();
  return (
    <div className="space-y-6">
      <LookupForm
        id="lookup-ip"
        texts="Landing.ipTracker"
        onLookup={lookup}
        input={{ inputMode: 'decimal', placeholder: '8.8.8.8' }}
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {/* The result arrives after the page paints: its room is reserved, so nothing below it moves (CLS). */}
      <div className="min-h-[30rem] md:min-h-[21rem]">{info && <IpResult info={info} />}</div>
    </div>
  );
}

/**
 * One IP lookup's answer (`info`; `mine` when it is the visitor's own address): the address, country (in the page's
 * language), region, city and accuracy radius as a list, then the area on a small map (a dashed circle of the radius,
 * in metres; 5 km when the database gives none), or that the address could not be placed.
 */
function IpResult({ info }: { info: IpAnswer }) {
  const t = useTranslations('Landing.ipTracker');
  const locale = useLocale();
  const unknown = t('unknown');
  const found = info.status === 'found' && info.latitude !== null && info.longitude !== null;
  const rows: [string, string][] = [
    [t('ip'), `${info.ip ?? unknown}${info.mine ? ` (${t('yours')})` : ''}`],
    [
      t('country'),
      // In the page's language, not the browser's.
      info.countryCode ? regionName(info.countryCode, locale) : unknown,
    ],
    [t('region'), info.region ?? unknown],
    [t('city'), info.city ?? unknown],
    [t('radius'), info.accuracyRadiusKm ? t('radiusValue', { km: info.accuracyRadiusKm }) : t('noRadius')],
  ];

  return (
    <div className="grid gap-6 md:grid-cols-2" data-testid="ip-result">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl bg-white p-5 text-sm ring-1 ring-slate-200">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-600">{k}</dt>
            <dd className="font-medium break-all text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      {!found && <p className="text-slate-700">{t('notFound')}</p>}
      {found && (
        // Its own stacking context (isolation): Leaflet's panes (z-index 400 and up) stay under the sticky
        // header and the cookie bar instead of drawing over them.
        <div aria-label={t('mapLabel')} role="img" className="isolate">
          <LeafletMap
            latest={null}
            track={[]}
            ipLabel={t('mapLabel')}
            ip={{
              id: 0,
              source: 'ip',
              precision: 'approximate',
              latitude: info.latitude!,
              longitude: info.longitude!,
              accuracy: info.accuracyRadiusKm ? info.accuracyRadiusKm * 1000 : null,
              label: info.city,
              recordedAt: new Date().toISOString(),
            }}
          />
        </div>
      )}
    </div>
  );
}
