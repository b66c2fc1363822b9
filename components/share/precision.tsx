'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { SHARE_PRECISIONS, type SharePrecision } from '@/lib/contracts/consent';

// Exact or approximate, the owner's choice (docs/decisions/0022-approximate-area-cells.md), on the consent page:
// before a share, and while one runs.

/**
 * One choice of the consent page as a row of radio buttons that look like buttons (the duration, the precision):
 * `legend` names it, `options` are its values with their words, `value` is the one chosen, `onChange` sets it; the
 * radios are visually hidden and the focused one is ringed. `children` comes under the row (a note on the choice).
 */
export function ChoiceRow<T extends string | number>({
  name,
  legend,
  options,
  value,
  onChange,
  className = '',
  children,
}: {
  name: string;
  legend: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <fieldset className={className} data-testid={`${name}-choice`}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 flex gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex min-h-11 flex-1 cursor-pointer items-center justify-center rounded-lg border px-3 py-2 text-center text-sm has-[:focus-visible]:ring-2 ${value === o.value ? 'border-brand bg-brand-light' : 'border-slate-300'}`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}

/**
 * "What to share" beside the duration on the consent page: the exact position, or an approximate area of about 2 km
 * (only its cell leaves the phone). `value` is the choice, `onChange` sets it.
 */
export function PrecisionChoice({
  value,
  onChange,
}: {
  value: SharePrecision;
  onChange: (precision: SharePrecision) => void;
}) {
  const t = useTranslations('Consent');
  return (
    <ChoiceRow
      name="precision"
      legend={t('precision')}
      options={SHARE_PRECISIONS.map((p) => ({
        value: p,
        label: p === 'exact' ? t('precisionExact') : t('precisionArea'),
      }))}
      value={value}
      onChange={onChange}
      className="mt-4"
    >
      {value === 'approximate' && <p className="mt-2 text-sm text-slate-600">{t('precisionAreaNote')}</p>}
    </ChoiceRow>
  );
}

/**
 * While a share runs: an approximate one says that only an area of about 2 km is sent; an exact one offers to send an
 * approximate area instead (`onApproximate`; the way back to exact is a new share, and the page says so). `busy`
 * greys the button while the answer is on its way.
 */
export function SharingPrecision({
  precision,
  busy,
  onApproximate,
}: {
  precision: SharePrecision;
  busy: boolean;
  onApproximate: () => void;
}) {
  const t = useTranslations('Consent');
  if (precision === 'approximate')
    return (
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-800 ring-1 ring-slate-200" data-testid="sharing-area">
        {t('sharingArea')}
      </p>
    );
  return (
    <div>
      <button
        type="button"
        disabled={busy}
        onClick={onApproximate}
        className="min-h-11 w-full rounded-xl border-2 border-slate-400 px-3 py-2 font-medium text-slate-800 disabled:opacity-60"
        data-testid="to-area"
      >
        {t('toArea')}
      </button>
      <p className="mt-1 text-xs text-slate-600">{t('toAreaNote')}</p>
    </div>
  );
}
