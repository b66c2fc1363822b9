import type { Liveness } from '@/lib/live-state';
import type { LocationTrace } from '@/lib/contracts/locations';

// The words and colours the buyer's maps give a share (the single map, ./map-view.tsx, and the people map,
// ./people-map.tsx): how live it is, and the nearest named place.

/** The colour of each word for how live a share is: green while live, amber when it may come back, slate when ended. */
export const LIVE_TONE: Record<Liveness, string> = {
  waiting: 'font-semibold text-slate-800',
  live: 'font-semibold text-green-800',
  paused: 'font-semibold text-amber-800',
  permission_lost: 'font-semibold text-red-800',
  offline: 'font-semibold text-amber-800',
  stopped_by_owner: 'font-semibold text-slate-800',
  time_ran_out: 'font-semibold text-slate-800',
  declined: 'font-semibold text-red-800',
  expired: 'font-semibold text-slate-800',
  withdrawn: 'font-semibold text-slate-800',
};

/**
 * The words of a nearest place for `Map.near`: "Sol, Madrid, Spain" (the country's name in `locale`, Intl.DisplayNames)
 * and its distance ("800 m", "1.2 km"), from the trace's `place` (metres). For an approximate area (`area`) the
 * distance is rounded to whole kilometres, at least 2: a distance from the cell's centre says nothing finer.
 */
export function placeWords(
  place: NonNullable<LocationTrace['place']>,
  locale: string,
  area = false,
): { place: string; distance: string } {
  const country = new Intl.DisplayNames([locale], { type: 'region' }).of(place.country) ?? place.country;
  const parts = [place.name, place.region, country].filter((part, i, all) => part && all.indexOf(part) === i);
  if (area) {
    const km = Math.max(2, Math.round(place.distanceM / 1000));
    const words = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 });
    return { place: parts.join(', '), distance: words.format(km) };
  }
  const km = place.distanceM >= 1000;
  const distance = new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: km ? 'kilometer' : 'meter',
    maximumFractionDigits: km ? 1 : 0,
  }).format(km ? place.distanceM / 1000 : Math.max(10, Math.round(place.distanceM / 10) * 10));
  return { place: parts.join(', '), distance };
}
