'use client';
import { useLocale, useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { formatPhone } from '@/lib/phone-format';
import { liveness } from '@/lib/live-state';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import type { LocationTrace, People } from '@/lib/contracts/locations';
import { formatAgo } from '@/lib/intl-format';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';
import { useNow } from '../ui/use-now';
import { useApi } from '../ui/use-api';
import { PERSON_COLOURS, usePeople } from './use-people';
import { LIVE_TONE, placeWords } from './live-words';
import type { PersonOnMap } from './people-leaflet';

const PeopleLeaflet = dynamic(() => import('./people-leaflet'), { ssr: false });

/**
 * The people map of "My locations" (docs/features.md "The people map"): everyone who shares with the subscriber, or
 * has shared and whose positions are still kept, on one map, each in their colour and labelled with their number,
 * and listed beside the map on a desktop and under it on a phone, with how live each share is and the age of its
 * newest fix, ticking every second, as the single map says them (lib/live-state.ts). Live over one stream for all
 * (./use-people.ts); a tap on a person, on the map or in the list, opens their single map. A share that ended says so
 * and stays until its positions are deleted; an approximate share shows its area, never a point. Renders nothing while
 * nobody shares (or before the first answer, or signed out: the page around it says that).
 */
export function PeopleMap() {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const router = useRouter();
  const now = useNow(1000);
  const poll = useCallback(
    async (active: () => boolean): Promise<People | null | undefined> => {
      try {
        return await api.call('GET /gpsTrace/people');
      } catch (e) {
        // Signed out: stop asking (the page says it); anything else: try again at the next turn.
        return (e as ApiClientError).code === SESSION_INVALID || !active() ? null : undefined;
      }
    },
    [api],
  );
  const { people, colours, transport } = usePeople(poll);
  const mapOf = useCallback((id: string) => localePath(locale, `/map/?id=${id}`), [locale]);
  const open = useCallback((id: string) => router.push(mapOf(id)), [router, mapOf]);
  if (!people || people.length === 0) return null;
  const colourOf = (id: string) => colours[id] ?? PERSON_COLOURS[0];
  const onMap: PersonOnMap[] = people.flatMap((p) =>
    p.positions[0]
      ? [
          {
            id: p.id,
            fix: p.positions[0],
            colour: colourOf(p.id),
            label: formatPhone(p.phone) + (p.positions[0].precision === 'approximate' ? ` · ${t('areaLabel')}` : ''),
          },
        ]
      : [],
  );
  return (
    <section className="mt-6" aria-labelledby="people-heading" data-testid="people-map">
      <h2 id="people-heading" className="text-lg font-semibold">
        {t('people.heading')}
      </h2>
      <p className="text-sm text-slate-600">
        {t('people.note')} {transport === 'polling' ? t('transportPolling') : t('transportStream')}
      </p>
      <div className="mt-3 grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {onMap.length > 0 ? (
            <PeopleLeaflet
              people={onMap}
              onOpen={open}
              texts={{ recentre: t('recentre'), offlineBase: t('offlineBase'), label: t('people.heading') }}
            />
          ) : (
            <p role="status" className="rounded-lg bg-slate-100 p-4 text-sm">
              {t('people.noFixes')}
            </p>
          )}
        </div>
        <ul
          className="divide-y divide-slate-200 self-start rounded-xl bg-white ring-1 ring-slate-200"
          data-testid="people-list"
        >
          {people.map((p) => (
            <PersonRow key={p.id} person={p} colour={colourOf(p.id)} href={mapOf(p.id)} now={now} />
          ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * One person in the list: their colour, their number, how live their share is and the age of its newest fix, the
 * nearest place; the whole row links to their single map.
 */
function PersonRow({
  person,
  colour,
  href,
  now,
}: {
  person: LocationTrace;
  colour: string;
  href: string;
  now: number;
}) {
  const t = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  const fix = person.positions[0];
  const live = liveness(person, now);
  const area = fix?.precision === 'approximate';
  return (
    <li data-testid="person" data-person={person.id}>
      <Link href={href} className="flex min-h-11 items-start gap-3 p-3 hover:bg-slate-50">
        <span aria-hidden="true" className="mt-1.5 h-3 w-3 shrink-0 rounded-full" style={{ background: colour }} />
        <span className="min-w-0">
          <span className="block font-semibold text-slate-900">{formatPhone(person.phone)}</span>
          <span className="block text-sm text-slate-700">
            <span data-testid="person-liveness" data-state={live} className={LIVE_TONE[live]}>
              {t(`live.${live}`)}
            </span>{' '}
            ·{' '}
            <span data-testid="person-age">
              {fix ? t('lastFix', { ago: formatAgo(fix.recordedAt, locale, now, { seconds: true }) }) : t('noFixYet')}
            </span>
          </span>
          {area && <span className="block text-xs text-slate-600">{t('areaLabel')}</span>}
          {person.place && (
            <span className="block text-xs text-slate-600" data-testid="person-place">
              {t('near', placeWords(person.place, locale, area))}
            </span>
          )}
        </span>
      </Link>
    </li>
  );
}
