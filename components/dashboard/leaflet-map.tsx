'use client';
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useLocale } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MapContainer, Polyline, ScaleControl, TileLayer, useMap } from 'react-leaflet';
import type { Position } from '@/lib/contracts/locations';
import { site } from '@/lib/site';
import { areaCell } from '@/lib/geo';
import { OfflineBase } from './offline-base';
import { PlaceLabels } from './place-labels';
import { FixLayers, IpAreaLayers } from './position-layers';

/** How far the map zooms in to frame the positions with tiles (their streets and buildings show). */
export const MAX_FIT_ZOOM = 17;

/**
 * How far it zooms in without tiles, on the built-in base map: at 14 a 360 px frame is about 2 km wide, wide enough to
 * hold the places the gazetteer names around a position in a town (lib/contracts/places.ts labels from zoom 9).
 */
const MAX_OFFLINE_FIT_ZOOM = 14;

/** The margin (CSS px) kept between what is framed and the map's edge. */
export const FIT_PADDING_PX = 32;

/** The view's bounds less `inset` CSS px on every side: what counts as "in the frame". */
function innerBounds(map: L.Map, inset: number): L.LatLngBounds {
  const size = map.getSize();
  return L.latLngBounds(
    map.containerPointToLatLng([inset, size.y - inset]),
    map.containerPointToLatLng([size.x - inset, inset]),
  );
}

/**
 * Keeps `frame` (the trail and the accuracy circle, south-west and north-east corners in degrees) in view: the map is
 * created fitted to it, and fitted again when it grows out of the frame (a new fix away from the trail) or when tiles
 * fail and the view is closer than MAX_OFFLINE_FIT_ZOOM. Once the user pans or zooms by hand (any move this component
 * did not make: drag, pinch, zoom buttons, keyboard), it stops following and offers `recentre`, which fits again and
 * follows again; without that text (a map with no button) it still stops following. The fits are not animated, so
 * their own move events end before the flag that marks them is cleared.
 */
export function FitView({
  frame,
  offline,
  recentre,
}: {
  frame: [[number, number], [number, number]];
  offline: boolean;
  recentre?: string;
}) {
  const map = useMap();
  const fitting = useRef(false);
  const [byHand, setByHand] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const maxZoom = offline ? MAX_OFFLINE_FIT_ZOOM : MAX_FIT_ZOOM;
  const fit = useCallback(() => {
    fitting.current = true;
    try {
      map.fitBounds(frame, { padding: [FIT_PADDING_PX, FIT_PADDING_PX], maxZoom, animate: false });
    } finally {
      fitting.current = false;
    }
  }, [map, frame, maxZoom]);
  useEffect(() => {
    const onMove = () => {
      if (!fitting.current) setByHand(true);
    };
    map.on('movestart zoomstart', onMove);
    return () => {
      map.off('movestart zoomstart', onMove);
    };
  }, [map]);
  useEffect(() => {
    if (byHand) return;
    if (map.getZoom() > maxZoom || !innerBounds(map, FIT_PADDING_PX / 2).contains(frame)) fit();
  }, [map, frame, maxZoom, byHand, fit]);
  useEffect(() => {
    // A click on the button must not reach the map (a double click would zoom it).
    if (button.current) L.DomEvent.disableClickPropagation(button.current);
  }, [byHand, recentre]);
  if (!byHand || !recentre) return null;
  return (
    <button
      ref={button}
      type="button"
      data-testid="map-recentre"
      onClick={() => {
        fit();
        setByHand(false);
      }}
      className="absolute top-2.5 left-14 z-[1000] min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 shadow"
    >
      {recentre}
    </button>
  );
}

/** `bounds` as the key of its corners rounded to 6 decimals (about 0.1 m): a frame is rebuilt only when they move. */
export function cornersOf(bounds: L.LatLngBounds): string {
  return [bounds.getSouth(), bounds.getWest(), bounds.getNorth(), bounds.getEast()].map((v) => v.toFixed(6)).join(',');
}

/** The frame (`[[south, west], [north, east]]`, degrees) of `corners` (`cornersOf`), the same object while they are. */
export function useFrame(corners: string | null): [[number, number], [number, number]] | null {
  return useMemo(() => {
    if (!corners) return null;
    const [s, w, n, e] = corners.split(',').map(Number);
    return [
      [s, w],
      [n, e],
    ];
  }, [corners]);
}

/**
 * The Leaflet map (browser only; loaded with next/dynamic): the newest GPS fix as a marker labelled `markerLabel` (the
 * number located, and the nearest place when known) with its accuracy circle (radius in metres), the track of the
 * earlier fixes, and the IP-based area as a separate dashed circle labelled as approximate. Tiles from
 * NEXT_PUBLIC_TILE_URL (OpenStreetMap by default) with their attribution, over a built-in Natural Earth base layer
 * that shows where tiles cannot load (`OfflineBase`); there the gazetteer's place names label it (`PlaceLabels`) and,
 * given `texts.offlineBase`, a line under the map says the street map is missing. The map frames the trail and the
 * accuracy circle (or the IP area) and follows them until the user moves it by hand (`FitView`, with the
 * `texts.recentre` button); a metric and imperial scale gives distances; the circle stays visible at every zoom
 * (`AccuracyRing`). An approximate share's fix (`precision` approximate) is drawn as its area cell (lib/geo.ts
 * `areaCell`), a square labelled `areaLabel`, never as a point.
 */
export default function LeafletMap({
  latest,
  track,
  ip,
  ipLabel,
  markerLabel,
  areaLabel,
  texts,
}: {
  latest: Position | null;
  track: Position[];
  ip: Position | null;
  ipLabel: string;
  markerLabel?: string;
  /** The words on an approximate area ("Approximate area (about 2 km)"). */
  areaLabel?: string;
  /** The map's own words, where the page has them: the Recentre button and the note shown without tiles. */
  texts?: { recentre: string; offlineBase: string };
}) {
  const locale = useLocale();
  const focus = latest ?? ip;
  // An approximate share: the cell the fix stands for, drawn as an area (its centre is no position).
  const area = latest?.precision === 'approximate' ? areaCell(latest.latitude, latest.longitude) : null;
  const radiusM = area ? area.radiusM : latest ? (latest.accuracy ?? 50) : (ip?.accuracy ?? 5000);
  const [offline, setOffline] = useState(false);
  const onOffline = useCallback(() => setOffline(true), []);
  // What to keep in view: every point of the trail and the newest fix's accuracy circle (or, before any fix, the IP
  // area). Rebuilt only when its rounded corners change, so a new fix inside the frame moves nothing.
  const corners = useMemo(() => {
    if (!focus) return null;
    const bounds = L.latLng(focus.latitude, focus.longitude).toBounds(radiusM * 2);
    for (const p of track) bounds.extend([p.latitude, p.longitude]);
    return cornersOf(bounds);
  }, [focus, radiusM, track]);
  const frame = useFrame(corners);
  if (!focus || !frame) return null;
  return (
    <div>
      <MapContainer
        bounds={frame}
        boundsOptions={{ padding: [FIT_PADDING_PX, FIT_PADDING_PX], maxZoom: MAX_FIT_ZOOM }}
        className="h-80 w-full rounded-xl sm:h-[28rem]"
        style={{ background: '#bfdbfe' }}
        scrollWheelZoom={false}
      >
        <OfflineBase onOffline={onOffline} />
        {offline && <PlaceLabels language={locale} />}
        <TileLayer attribution={site.tileAttribution} url={site.tileUrl} />
        <ScaleControl position="topright" />
        {ip && <IpAreaLayers ip={ip} label={ipLabel} ring={!latest} />}
        {track.length > 1 && (
          <Polyline
            positions={track.map((p) => [p.latitude, p.longitude] as [number, number])}
            pathOptions={{ color: '#1d4ed8', weight: 3, opacity: 0.6 }}
          />
        )}
        {latest && (
          <FixLayers latest={latest} area={area} radiusM={radiusM} markerLabel={markerLabel} areaLabel={areaLabel} />
        )}
        <FitView frame={frame} offline={offline} recentre={texts?.recentre} />
      </MapContainer>
      {offline && texts && (
        <p className="mt-1 text-xs text-slate-600" data-testid="offline-base-note">
          {texts.offlineBase}
        </p>
      )}
    </div>
  );
}
