'use client';
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Circle, CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap, useMapEvent } from 'react-leaflet';
import type { Position } from '@/lib/contracts/locations';
import { site } from '@/lib/site';
import { OfflineBase } from './offline-base';

function Recenter({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng]);
  }, [map, lat, lng]);
  return null;
}

/** The smallest radius (CSS px) at which the accuracy circle is drawn, so that it shows at every zoom. */
const MIN_RING_PX = 12;

/**
 * A ring of at least MIN_RING_PX around (`lat`, `lng`) while the accuracy circle of `radiusM` metres is drawn smaller
 * than that at the map's zoom: zoomed out to the country outlines, the position's circle stays visible.
 */
function AccuracyRing({ lat, lng, radiusM, color }: { lat: number; lng: number; radiusM: number; color: string }) {
  const map = useMap();
  const pixels = () => {
    const centre = map.latLngToLayerPoint([lat, lng]);
    const edge = map.latLngToLayerPoint(
      L.latLng(lat, lng)
        .toBounds(radiusM * 2)
        .getNorthEast(),
    );
    return Math.abs(edge.x - centre.x);
  };
  const [small, setSmall] = useState(() => pixels() < MIN_RING_PX);
  useMapEvent('zoomend', () => setSmall(pixels() < MIN_RING_PX));
  if (!small) return null;
  return (
    <CircleMarker
      center={[lat, lng]}
      radius={MIN_RING_PX}
      interactive={false}
      pathOptions={{ color, weight: 2, dashArray: '3 3', fillOpacity: 0.1 }}
    />
  );
}

/**
 * The Leaflet map (browser only; loaded with next/dynamic): the newest GPS fix as a marker labelled `markerLabel` (the
 * number located, and the nearest place when known) with its accuracy circle (radius in metres), the track of the
 * earlier fixes, and the IP-based area as a separate dashed circle labelled as approximate. Tiles from
 * NEXT_PUBLIC_TILE_URL (OpenStreetMap by default) with their attribution, over a built-in Natural Earth base layer
 * that shows where tiles cannot load (`OfflineBase`); then the map frames the accuracy circle (or the IP area), and
 * the circle stays visible at every zoom (`AccuracyRing`).
 */
export default function LeafletMap({
  latest,
  track,
  ip,
  ipLabel,
  markerLabel,
}: {
  latest: Position | null;
  track: Position[];
  ip: Position | null;
  ipLabel: string;
  markerLabel?: string;
}) {
  const focus = latest ?? ip;
  const radiusM = latest ? (latest.accuracy ?? 50) : (ip?.accuracy ?? 5000);
  // The circle to frame when tiles fail; a ref, so that a new position (every poll) does not rebuild the base layer.
  const frame = useRef<{ lat: number; lng: number; radiusM: number } | null>(null);
  useEffect(() => {
    frame.current = focus ? { lat: focus.latitude, lng: focus.longitude, radiusM } : null;
  });
  const onOffline = useCallback((map: L.Map) => {
    const circle = frame.current;
    if (!circle) return;
    map.fitBounds(L.latLng(circle.lat, circle.lng).toBounds(circle.radiusM * 2), { padding: [24, 24], maxZoom: 18 });
  }, []);
  if (!focus) return null;
  const center: [number, number] = [focus.latitude, focus.longitude];
  return (
    <MapContainer
      center={center}
      zoom={latest ? 15 : 10}
      className="h-80 w-full rounded-xl sm:h-[28rem]"
      style={{ background: '#bfdbfe' }}
      scrollWheelZoom={false}
    >
      <OfflineBase onOffline={onOffline} />
      <TileLayer attribution={site.tileAttribution} url={site.tileUrl} />
      {ip && (
        <Circle
          center={[ip.latitude, ip.longitude]}
          radius={ip.accuracy ?? 5000}
          pathOptions={{ color: '#b45309', weight: 2, dashArray: '6 6', fillOpacity: 0.05 }}
        >
          <Tooltip>{ipLabel}</Tooltip>
        </Circle>
      )}
      {ip && !latest && (
        <AccuracyRing lat={ip.latitude} lng={ip.longitude} radiusM={ip.accuracy ?? 5000} color="#b45309" />
      )}
      {track.length > 1 && (
        <Polyline
          positions={track.map((p) => [p.latitude, p.longitude] as [number, number])}
          pathOptions={{ color: '#1d4ed8', weight: 3, opacity: 0.6 }}
        />
      )}
      {latest && latest.accuracy !== null && (
        <Circle
          center={center}
          radius={latest.accuracy}
          pathOptions={{ color: '#1d4ed8', weight: 1, fillOpacity: 0.15 }}
        />
      )}
      {latest && <AccuracyRing lat={center[0]} lng={center[1]} radiusM={radiusM} color="#1d4ed8" />}
      {latest && (
        <CircleMarker
          center={center}
          radius={8}
          pathOptions={{ color: '#ffffff', weight: 2, fillColor: '#1d4ed8', fillOpacity: 1 }}
        >
          {markerLabel && (
            <Tooltip permanent direction="top" offset={[0, -10]}>
              <span data-testid="marker-label">{markerLabel}</span>
            </Tooltip>
          )}
        </CircleMarker>
      )}
      <Recenter lat={focus.latitude} lng={focus.longitude} />
    </MapContainer>
  );
}
