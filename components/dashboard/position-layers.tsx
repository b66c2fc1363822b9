'use client';
import L from 'leaflet';
import { useState } from 'react';
import { Circle, CircleMarker, Rectangle, Tooltip, useMap, useMapEvent } from 'react-leaflet';
import type { Position } from '@/lib/contracts/locations';
import type { AreaCell } from '@/lib/geo';

/** The smallest radius (CSS px) at which the accuracy circle is drawn, so that it shows at every zoom. */
const MIN_RING_PX = 12;

/**
 * A ring of at least MIN_RING_PX around (`lat`, `lng`) while the accuracy circle of `radiusM` metres is drawn smaller
 * than that at the map's zoom: zoomed out to the country outlines, the position's circle stays visible.
 */
export function AccuracyRing({
  lat,
  lng,
  radiusM,
  color,
}: {
  lat: number;
  lng: number;
  radiusM: number;
  color: string;
}) {
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
 * The IP-based area of `ip` on a Leaflet map: a dashed amber circle of its accuracy (metres; 5 km when unknown) with
 * the tooltip `label`, and, when `ring` (no GPS fix is drawn), the AccuracyRing that keeps it visible at every zoom.
 */
export function IpAreaLayers({ ip, label, ring }: { ip: Position; label: string; ring: boolean }) {
  return (
    <>
      <Circle
        center={[ip.latitude, ip.longitude]}
        radius={ip.accuracy ?? 5000}
        pathOptions={{ color: '#b45309', weight: 2, dashArray: '6 6', fillOpacity: 0.05 }}
      >
        <Tooltip>{label}</Tooltip>
      </Circle>
      {ring && <AccuracyRing lat={ip.latitude} lng={ip.longitude} radiusM={ip.accuracy ?? 5000} color="#b45309" />}
    </>
  );
}

/**
 * The newest GPS fix (`latest`) on a Leaflet map. For an approximate share, its `area` cell (lib/geo.ts `areaCell`) as
 * a dashed square labelled `markerLabel · areaLabel`, never a point; otherwise the accuracy circle (metres, when
 * known) and a marker labelled `markerLabel`. Either way an AccuracyRing of `radiusM` metres (the cell's or the fix's)
 * keeps it visible at every zoom.
 */
export function FixLayers({
  latest,
  area,
  radiusM,
  markerLabel,
  areaLabel,
}: {
  latest: Position;
  area: AreaCell | null;
  radiusM: number;
  markerLabel?: string;
  areaLabel?: string;
}) {
  const center: [number, number] = [latest.latitude, latest.longitude];
  return (
    <>
      {area && (
        <Rectangle
          bounds={[
            [area.south, area.west],
            [area.north, area.east],
          ]}
          pathOptions={{ color: '#1d4ed8', weight: 2, dashArray: '4 4', fillOpacity: 0.15 }}
        >
          <Tooltip permanent direction="top">
            <span data-testid="area-label">
              {markerLabel ? `${markerLabel} · ` : ''}
              {areaLabel}
            </span>
          </Tooltip>
        </Rectangle>
      )}
      {area && <AccuracyRing lat={area.latitude} lng={area.longitude} radiusM={area.radiusM} color="#1d4ed8" />}
      {!area && latest.accuracy !== null && (
        <Circle
          center={center}
          radius={latest.accuracy}
          pathOptions={{ color: '#1d4ed8', weight: 1, fillOpacity: 0.15 }}
        />
      )}
      {!area && <AccuracyRing lat={center[0]} lng={center[1]} radiusM={radiusM} color="#1d4ed8" />}
      {!area && (
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
    </>
  );
}
