'use client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LocationTrace, People, PeopleEvent } from '@/lib/contracts/locations';
import { usePolling } from '../ui/use-polling';
import { pollingAfterFailures, type LiveTransport } from './use-live-trace';

/**
 * One colour per person (`coloured`; a person keeps theirs while the page is open, and after a reload if the same
 * people are on the map).
 * Tailwind's 700 shades: each reads against the map's tiles and the built-in base, and with the white ring of a
 * marker. A colour never stands alone: every marker and row also carries the number.
 */
export const PERSON_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7e22ce', '#c2410c', '#0e7490', '#be185d', '#4d7c0f'];

/**
 * `colours` with one for each of `people` that has none yet: the colour its request id points to (a string hash), or
 * the next one not in use by another on the map, taken in the order the requests were made; so the same people get
 * the same colours after a reload.
 */
function coloured(colours: Readonly<Record<string, string>>, people: LocationTrace[]): Record<string, string> {
  const next = { ...colours };
  const byAge = [...people].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const { id } of byAge) {
    if (next[id]) continue;
    const used = new Set(people.map((p) => next[p.id]).filter(Boolean));
    const start = [...id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 0) % PERSON_COLOURS.length;
    const free = PERSON_COLOURS.map((_, i) => PERSON_COLOURS[(start + i) % PERSON_COLOURS.length]);
    next[id] = free.find((c) => !used.has(c)) ?? PERSON_COLOURS[start];
  }
  return next;
}

/** Each event of the people stream's data by its name (lib/contracts/locations.ts `PeopleEvent`). */
type PeopleData = { [E in PeopleEvent['event']]: Extract<PeopleEvent, { event: E }>['data'] };

/** `person` replaces (or adds) one person, keeping the order the server gave; the others stay as they are. */
function withPerson(people: LocationTrace[], person: LocationTrace): LocationTrace[] {
  return people.some((p) => p.id === person.id)
    ? people.map((p) => (p.id === person.id ? person : p))
    : [...people, person];
}

/** Applies `change` to the person `r` (a new fix, state or place), leaving the others as they are. */
function update(people: LocationTrace[], r: string, change: (p: LocationTrace) => LocationTrace): LocationTrace[] {
  return people.map((p) => (p.id === r ? change(p) : p));
}

/**
 * Everyone on the people map of "My locations", kept current over ONE Server-Sent Events stream,
 * `GET /api_f/v1/gpsTrace/people/live` (server/api/routes/live.ts; docs/features.md "The people map"): `people`
 * replaces the list, `person` replaces one (a share ended) or adds one (a share began), `position` sets that person's
 * newest fix (only the newest is kept: the people map draws no trail), `state` and `place` update them, `gone` takes
 * them off. Where EventSource is missing or keeps failing (./use-live-trace.ts `pollingAfterFailures`), polling
 * `GET /gpsTrace/people` every 3 s takes over (`poll`, which returns the list, or null to stop: signed out). Null
 * until the first answer. Each person gets a colour when they first appear (PERSON_COLOURS).
 */
export function usePeople(poll: (active: () => boolean) => Promise<People | null | undefined>): {
  people: LocationTrace[] | null;
  /** Each person's colour by request id (PERSON_COLOURS). */
  colours: Readonly<Record<string, string>>;
  transport: LiveTransport;
} {
  const [view, setView] = useState<{ people: LocationTrace[]; colours: Record<string, string> } | null>(null);
  const setPeople = useCallback(
    (apply: (now: LocationTrace[] | null) => LocationTrace[]) =>
      setView((v) => {
        const people = apply(v?.people ?? null);
        return { people, colours: coloured(v?.colours ?? {}, people) };
      }),
    [],
  );
  const [transport, setTransport] = useState<LiveTransport>(() =>
    typeof window !== 'undefined' && 'EventSource' in window ? 'connecting' : 'polling',
  );
  const failures = useRef(0);

  useEffect(() => {
    if (transport === 'polling') return;
    const source = new EventSource('/api_f/v1/gpsTrace/people/live');
    // Each event's data as the contract types it (lib/contracts/locations.ts `PeopleEvent`).
    const on = <E extends PeopleEvent['event']>(
      event: E,
      apply: (data: PeopleData[E], people: LocationTrace[]) => LocationTrace[],
    ) =>
      source.addEventListener(event, (e) => {
        failures.current = 0;
        setTransport('stream');
        const data = JSON.parse((e as MessageEvent<string>).data) as PeopleData[E];
        setPeople((now) => apply(data, now ?? []));
      });
    on('people', (data) => data.people);
    on('person', (person, now) => withPerson(now, person));
    on('position', ({ r, ...fix }, now) =>
      update(now, r, (p) => (p.positions[0] && p.positions[0].id >= fix.id ? p : { ...p, positions: [fix] })),
    );
    on('state', ({ r, ...state }, now) => update(now, r, (p) => ({ ...p, ...state })));
    on('place', ({ r, place }, now) => update(now, r, (p) => ({ ...p, place })));
    on('gone', ({ r }, now) => now.filter((p) => p.id !== r));
    source.onerror = pollingAfterFailures(source, failures, () => setTransport('polling'));
    return () => source.close();
  }, [transport === 'polling', setPeople]); // eslint-disable-line react-hooks/exhaustive-deps

  const step = useCallback(
    async (active: () => boolean) => {
      if (transport !== 'polling') return false;
      const next = await poll(active);
      if (next && active()) setPeople(() => next.people);
      return next !== null;
    },
    [poll, transport, setPeople],
  );
  usePolling(step);
  return { people: view?.people ?? null, colours: view?.colours ?? {}, transport };
}
