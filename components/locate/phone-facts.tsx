'use client';
import { useTranslations } from 'next-intl';
import type { PhoneInfo } from '@/lib/api/types';

/**
 * The numbering-plan facts of a number, labelled as such (ARCHITECTURE §8): country, carrier, line type, region,
 * time zones — never presented as the phone's location.
 */
export function PhoneFacts({ info }: { info: PhoneInfo }) {
  const t = useTranslations('PhoneFacts');
  const unknown = t('unknown');
  const rows: [string, string, string][] = [
    ['e164', t('e164'), info.international],
    ['country', t('country'), `${info.countryName} (${info.countryCode}, ${info.callingCode})`],
    ['carrier', t('carrier'), info.carrier ?? unknown],
    ['lineType', t('lineType'), t(`lineTypes.${info.lineType}` as 'lineTypes.UNKNOWN')],
    ['region', t('region'), info.region ?? unknown],
    ['timeZones', t('timeZones'), info.timeZones.join(', ') || unknown],
  ];
  return (
    <section aria-labelledby="facts-title" className="rounded-xl border border-slate-200 bg-slate-50 p-4">
      <h3 id="facts-title" className="font-semibold text-slate-900">
        {t('title')}
      </h3>
      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([key, label, value]) => (
          <div key={key} className="contents" data-testid={`fact-${key}`}>
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{t('note')}</p>
    </section>
  );
}
