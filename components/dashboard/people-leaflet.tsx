'use client';
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useLocale } from 'next-intl';
import { useCallback, useMemo, useState } from 'react';
import { Circle, CircleMarker, MapContainer, Rectangle, ScaleControl, TileLayer, Tooltip } from 'react-leaflet';
import type { Position } from '@/lib/contracts/locations';
import { site } from '@/lib/site';
import { areaCell } from '@/lib/geo';
import { OfflineBase } from './offline-base';
import { PlaceLabels } from './place-labels';
import { FIT_PADDING_PX, FitView, MAX_FIT_ZOOM, cornersOf, useFrame } from './leaflet-map';
import { AccuracyRing } from './position-layers';

/** One person as the people map draws them: their newest GPS fix, their colour and label. */
export type PersonOnMap = {
  /** The request's id. */
  id: string;
  fix: Position;
  /** A CSS colour, one per person (./use-people.ts `PERSON_COLOURS`). */
  colour: string;
  /** The words on their marker: the number, and for an approximate share that it is an area. */
  label: string;
};

/**
 * The people map's Leaflet map (browser only; loaded with next/dynamic): each person's newest GPS fix as a marker in
 * their colour, labelled, with its accuracy circle (metres), or for an approximate share their area cell as a labelled
 * square, never a point (lib/geo.ts `areaCell`); a tap on a marker calls `onOpen` with the request's id (the single
 * map). The same base as the single map (./leaflet-map.tsx: tiles over the built-in Natural Earth base, the
 * gazetteer's names without tiles, a scale); it frames every person and follows them until moved by hand (`FitView`,
 * with `recentre`).
 */
export default function PeopleLeaflet({
  people,
  onOpen,
  texts,
}: {
  people: PersonOnMap[];
  onOpen: (id: string) => void;
  texts: { recentre: string; offlineBase: string; label: string };
}) {
  const locale = useLocale();
  const [offline, setOffline] = useState(false);
  const onOffline = useCallback(() => setOffline(true), []);
  // Every person's fix with its circle (or cell), rounded so that a fix inside the frame moves nothing.
  const corners = useMemo(() => {
    if (people.length === 0) return null;
    let bounds: L.LatLngBounds | null = null;
    for (const { fix } of people) {
      const cell = fix.precision === 'approximate' ? areaCell(fix.latitude, fix.longitude) : null;
      const around = L.latLng(fix.latitude, fix.longitude).toBounds((cell?.radiusM ?? fix.accuracy ?? 50) * 2);
      bounds = bounds ? bounds.extend(around) : around;
    }
    return cornersOf(bounds!);
  }, [people]);
  const frame = useFrame(corners);
  if (!frame) return null;
  return (
    <div>
      <MapContainer
        bounds={frame}
        boundsOptions={{ padding: [FIT_PADDING_PX, FIT_PADDING_PX], maxZoom: MAX_FIT_ZOOM }}
        className="h-80 w-full rounded-xl lg:h-[28rem]"
        style={{ background: '#bfdbfe' }}
        scrollWheelZoom={false}
        aria-label={texts.label}
      >
        <OfflineBase onOffline={onOffline} />
        {offline && <PlaceLabels language={locale} />}
        <TileLayer attribution={site.tileAttribution} url={site.tileUrl} />
        <ScaleControl position="topright" />
        {people.map((person) => (
          <Person key={person.id} person={person} onOpen={onOpen} />
        ))}
        <FitView frame={frame} offline={offline} recentre={texts.recentre} />
      </MapContainer>
      {offline && (
        <p className="mt-1 text-xs text-slate-600" data-testid="offline-base-note">
          {texts.offlineBase}
        </p>
      )}
    </div>
  );
}

/** One person on the map: their area cell, or their fix with its accuracy circle, in their colour and labelled. */
function Person({ person, onOpen }: { person: PersonOnMap; onOpen: (id: string) => void }) {
  const { fix, colour, label, id } = person;
  const click = { click: () => onOpen(id) };
  const tag = (
    <span
      data-testid="person-marker"
      data-person={id}
      data-at={`${fix.latitude.toFixed(5)},${fix.longitude.toFixed(5)}`}
    >
      {label}
    </span>
  );
  if (fix.precision === 'approximate') {
    const cell = areaCell(fix.latitude, fix.longitude);
    return (
      <>
        <Rectangle
          bounds={[
            [cell.south, cell.west],
            [cell.north, cell.east],
          ]}
          pathOptions={{ color: colour, weight: 2, dashArray: '4 4', fillOpacity: 0.15 }}
          eventHandlers={click}
        >
          <Tooltip permanent direction="top">
            {tag}
          </Tooltip>
        </Rectangle>
        <AccuracyRing lat={cell.latitude} lng={cell.longitude} radiusM={cell.radiusM} color={colour} />
      </>
    );
  }
  return (
    <>
      {fix.accuracy !== null && (
        <Circle
          center={[fix.latitude, fix.longitude]}
          radius={fix.accuracy}
          interactive={false}
          pathOptions={{ color: colour, weight: 1, fillOpacity: 0.12 }}
        />
      )}
      <CircleMarker
        center={[fix.latitude, fix.longitude]}
        radius={8}
        pathOptions={{ color: '#ffffff', weight: 2, fillColor: colour, fillOpacity: 1 }}
        eventHandlers={click}
      >
        <Tooltip permanent direction="top" offset={[0, -10]}>
          {tag}
        </Tooltip>
      </CircleMarker>
    </>
  );
}
