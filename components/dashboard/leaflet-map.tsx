'use client';
import 'leaflet/dist/leaflet.css';
import { Circle, CircleMarker, MapContainer, TileLayer, useMap } from 'react-leaflet';
import { useEffect } from 'react';
import type { Position } from '@/lib/api/types';

function Recenter({ lat, lng }: { lat: number; lng: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([lat, lng]);
  }, [map, lat, lng]);
  return null;
}

/**
 * The Leaflet map (browser only; loaded with next/dynamic): a marker at `position` and its accuracy circle
 * (radius in metres). OpenStreetMap tiles.
 */
export default function LeafletMap({ position }: { position: Position }) {
  const center: [number, number] = [position.latitude, position.longitude];
  return (
    <MapContainer
      center={center}
      zoom={position.source === 'ip' ? 10 : 15}
      className="h-80 w-full rounded-xl sm:h-[28rem]"
      scrollWheelZoom={false}
    >
      <TileLayer
        attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>'
        url="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png"
      />
      {position.accuracy !== null && (
        <Circle
          center={center}
          radius={position.accuracy}
          pathOptions={{ color: '#1d4ed8', weight: 1, fillOpacity: 0.15 }}
        />
      )}
      <CircleMarker
        center={center}
        radius={8}
        pathOptions={{ color: '#ffffff', weight: 2, fillColor: '#1d4ed8', fillOpacity: 1 }}
      />
      <Recenter lat={position.latitude} lng={position.longitude} />
    </MapContainer>
  );
}
