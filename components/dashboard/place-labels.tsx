'use client';
import L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { fetchCall } from '@/lib/api/fetch';
import { MAX_LABEL_TILES, PLACE_LABEL_ZOOMS, type PlaceLabels as Labels } from '@/lib/contracts/places';

/** Above the built-in base map (offline-base.tsx, z-index 150) and below the tiles (200), which cover it where they load. */
const LABEL_PANE = 'offline-labels';

/** The gazetteer's licence asks for credit (CC BY 4.0); shown in the map's attribution while the labels are. */
const ATTRIBUTION = 'Places: GeoNames (CC BY 4.0)';

/** How long the view rests (ms) before its labels are asked for, so a drag asks once, at its end. */
const SETTLE_MS = 150;

/**
 * The block of 256 px tiles (lib/contracts/places.ts) that covers the view of `map` and a quarter of it on each side
 * at zoom `z`, clamped to the world; the view alone when that is more than MAX_LABEL_TILES tiles, and null when even
 * that is (a very large screen at a far zoom: no labels rather than a refused query).
 */
function tileBlock(map: L.Map, z: number): { z: number; x0: number; y0: number; x1: number; y1: number } | null {
  const view = map.getPixelBounds();
  const scale = 2 ** (z - map.getZoom());
  const last = 2 ** z - 1;
  for (const margin of [0.25, 0]) {
    const dx = (view.max!.x - view.min!.x) * margin;
    const dy = (view.max!.y - view.min!.y) * margin;
    const tile = (v: number) => Math.min(last, Math.max(0, Math.floor((v * scale) / 256)));
    const block = {
      z,
      x0: tile(view.min!.x - dx),
      y0: tile(view.min!.y - dy),
      x1: tile(view.max!.x + dx),
      y1: tile(view.max!.y + dy),
    };
    if ((block.x1 - block.x0 + 1) * (block.y1 - block.y0 + 1) <= MAX_LABEL_TILES) return block;
  }
  return null;
}

/** A label: a small dot on the place and its name beside it, as text (a name is data, never markup). */
function labelIcon(name: string): L.DivIcon {
  const label = document.createElement('span');
  label.dataset.testid = 'place-label';
  label.className =
    'absolute flex max-w-32 -translate-x-[3px] -translate-y-1/2 items-center gap-1 text-[11px] leading-tight font-medium text-slate-700';
  label.style.textShadow = '0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff';
  const dot = document.createElement('span');
  dot.className = 'size-1.5 shrink-0 rounded-full bg-slate-500';
  const text = document.createElement('span');
  text.className = 'truncate';
  text.textContent = name;
  label.append(dot, text);
  return L.divIcon({ html: label, className: '', iconSize: [0, 0] });
}

/**
 * Names the places around what the map shows on the built-in base map, for maps whose tiles cannot load (mounted by
 * leaflet-map.tsx only then): after each move, the gazetteer's places for the view and a margin around it, from
 * `GET /other/places` (fetch, no session: the same public data for everyone, cached a day by the browser), at most
 * one per 128 × 40 px so they do not pile up (server/services/locate/places.ts). From zoom 9 (PLACE_LABEL_ZOOMS);
 * closer than 18 it reuses zoom 18's. `language` is the page's, for the API's error texts. A failed request leaves the
 * labels shown before and is asked again at the next move.
 */
export function PlaceLabels({ language }: { language: string }) {
  const map = useMap();
  useEffect(() => {
    if (!map.getPane(LABEL_PANE)) map.createPane(LABEL_PANE).style.zIndex = '160';
    const layer = L.layerGroup().addTo(map);
    map.attributionControl?.addAttribution(ATTRIBUTION);
    let asked = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let alive = true;
    const refresh = async () => {
      const zoom = Math.round(map.getZoom());
      const block = zoom < PLACE_LABEL_ZOOMS.min ? null : tileBlock(map, Math.min(zoom, PLACE_LABEL_ZOOMS.max));
      const key = block ? Object.values(block).join('/') : '';
      if (key === asked) return;
      asked = key;
      if (!block) {
        layer.clearLayers();
        return;
      }
      let answer: Labels;
      try {
        answer = await fetchCall('GET /other/places', { query: block }, { language });
      } catch {
        if (asked === key) asked = '';
        return;
      }
      if (!alive || asked !== key) return;
      layer.clearLayers();
      for (const place of answer.places) {
        L.marker([place.latitude, place.longitude], {
          pane: LABEL_PANE,
          icon: labelIcon(place.name),
          interactive: false,
          keyboard: false,
        }).addTo(layer);
      }
    };
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, SETTLE_MS);
    };
    void refresh();
    map.on('moveend', settle);
    return () => {
      alive = false;
      clearTimeout(timer);
      map.off('moveend', settle);
      map.attributionControl?.removeAttribution(ATTRIBUTION);
      layer.remove();
    };
  }, [map, language]);
  return null;
}
