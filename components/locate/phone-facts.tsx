'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { formatZone } from '@/lib/intl-format';

/**
 * The numbering-plan facts of a number, labelled as such (docs/rules.md#honest-copy): the number in international format, the
 * country, and where the plan gives them the original carrier, the line type, the region and each time zone as the
 * locale names it with its local time now ("Brasilia Standard Time (14:05)"). A fact the plan does not
 * give is left out rather than shown as a value; one line says what the plan can and cannot tell. Never
 * presented as the phone's location.
 */
export function PhoneFacts({ info }: { info: PhoneInfo }) {
  const t = useTranslations('PhoneFacts');
  const locale = useLocale();
  const [now] = useState(() => Date.now());
  const rows: [string, string, string | null][] = [
    ['e164', t('e164'), info.international],
    ['country', t('country'), info.countryName ? `${info.countryName} (${info.callingCode})` : info.callingCode],
    ['carrier', t('carrier'), info.carrier],
    [
      'lineType',
      t('lineType'),
      info.lineType === 'UNKNOWN' ? null : t(`lineTypes.${info.lineType}` as 'lineTypes.UNKNOWN'),
    ],
    ['region', t('region'), info.region],
    ['timeZones', t('timeZones'), info.timeZones.map((zone) => formatZone(zone, locale, now)).join(' · ') || null],
  ];
  const missing = rows.some(([, , value]) => value === null);
  return (
    <section aria-labelledby="facts-title" className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h3 id="facts-title" className="font-semibold text-slate-900">
        {t('title')}
      </h3>
      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows
          .filter(([, , value]) => value !== null)
          .map(([key, label, value]) => (
            <div key={key} className="contents" data-testid={`fact-${key}`}>
              <dt className="text-slate-600">{label}</dt>
              <dd className="font-medium break-words text-slate-900">{value}</dd>
            </div>
          ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">
        {t('note')}
        {missing && ` ${t('planLimits')}`}
      </p>
    </section>
  );
}
