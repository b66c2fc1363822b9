'use client';
import 'leaflet/dist/leaflet.css';
import { useEffect } from 'react';
import { Circle, CircleMarker, MapContainer, Polyline, TileLayer, Tooltip, useMap } from 'react-leaflet';
import type { Position } from '@/lib/api/types';
import { site } from '@/lib/site';
import { OfflineBase } from './offline-base';

function Recenter({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng]);
  }, [map, lat, lng]);
  return null;
}

/**
 * The Leaflet map (browser only; loaded with next/dynamic): the newest GPS fix as a marker with its accuracy circle
 * (radius in metres), the track of the earlier fixes, and the IP-based area as a separate dashed circle labelled as
 * approximate. Tiles from NEXT_PUBLIC_TILE_URL (OpenStreetMap by default) with their attribution, over a built-in
 * Natural Earth base layer that shows where tiles cannot load (`OfflineBase`, issue 13 §6).
 */
export default function LeafletMap({
  latest,
  track,
  ip,
  ipLabel,
}: {
  latest: Position | null;
  track: Position[];
  ip: Position | null;
  ipLabel: string;
}) {
  const focus = latest ?? ip;
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
      <OfflineBase />
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
      {latest && (
        <CircleMarker
          center={center}
          radius={8}
          pathOptions={{ color: '#ffffff', weight: 2, fillColor: '#1d4ed8', fillOpacity: 1 }}
        />
      )}
      <Recenter lat={focus.latitude} lng={focus.longitude} />
    </MapContainer>
  );
}
