'use client';
import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/** Below Leaflet's tile pane (z-index 200), so real tiles cover it wherever they load. */
const BASE_PANE = 'offline-base';

/**
 * A built-in base layer under the tiles: country borders and coastlines from Natural Earth 1:50m
 * (`world-atlas` countries-50m, public domain), drawn as land on a water-coloured map, so a position is placed on a
 * recognisable map when tiles do not load (in-app browsers, blocked tile hosts, offline screenshots). The TopoJSON
 * (≈ 750 KB, ≈ 200 KB compressed) and topojson-client are loaded only with the map. When the first tiles fail,
 * `onOffline` is called once (the map then frames what it shows no closer than zoom 14 and names the places around,
 * see leaflet-map.tsx) and the container is marked `data-offline-base="shown"`.
 */
export function OfflineBase({ onOffline }: { onOffline?: (map: L.Map) => void }) {
  const map = useMap();
  useEffect(() => {
    // Tiles that cannot load leave the built-in map, framed by the map's owner (onOffline) once.
    let tileLoaded = false;
    let offline = false;
    const onLoad = () => (tileLoaded = true);
    const onError = () => {
      map.getContainer().dataset.offlineBase = 'shown';
      if (tileLoaded || offline) return;
      offline = true;
      onOffline?.(map);
    };
    const watch = (layer: L.Layer) => {
      if (layer instanceof L.TileLayer) layer.on('tileload', onLoad).on('tileerror', onError);
    };
    const onAdd = (e: L.LayerEvent) => watch(e.layer);
    map.eachLayer(watch);
    map.on('layeradd', onAdd);
    let layer: L.GeoJSON | null = null;
    let cancelled = false;
    Promise.all([import('world-atlas/countries-50m.json'), import('topojson-client')]).then(([atlas, topojson]) => {
      if (cancelled) return;
      const topology = atlas.default as unknown as Parameters<typeof topojson.feature>[0];
      const countries = topojson.feature(topology, topology.objects.countries as never);
      if (!map.getPane(BASE_PANE)) map.createPane(BASE_PANE).style.zIndex = '150';
      layer = L.geoJSON(countries as never, {
        pane: BASE_PANE,
        interactive: false,
        attribution: 'Natural Earth',
        style: { color: '#94a3b8', weight: 0.8, fillColor: '#f8fafc', fillOpacity: 1 },
      }).addTo(map);
    });
    return () => {
      cancelled = true;
      layer?.remove();
      map.off('layeradd', onAdd);
      map.eachLayer((l) => l instanceof L.TileLayer && l.off('tileload', onLoad).off('tileerror', onError));
    };
  }, [map, onOffline]);
  return null;
}
