'use client';
import { useTranslations } from 'next-intl';
import { SHARE_PRECISIONS, type SharePrecision } from '@/lib/contracts/consent';

// Exact or approximate, the owner's choice (docs/decisions/0022-approximate-area-cells.md), on the consent page:
// before a share, and while one runs.

/**
 * "What to share" beside the duration on the consent page: the exact position, or an approximate area of about 2 km
 * (only its cell leaves the phone). `value` is the choice, `onChange` sets it; radio buttons that look like the
 * duration's.
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
    <fieldset className="mt-4" data-testid="precision-choice">
      <legend className="text-sm font-medium text-slate-800">{t('precision')}</legend>
      <div className="mt-2 flex gap-2">
        {SHARE_PRECISIONS.map((p) => (
          <label
            key={p}
            className={`flex min-h-11 flex-1 cursor-pointer items-center justify-center rounded-lg border px-3 py-2 text-center text-sm has-[:focus-visible]:ring-2 ${value === p ? 'border-brand bg-brand-light' : 'border-slate-300'}`}
          >
            <input
              type="radio"
              name="precision"
              value={p}
              checked={value === p}
              onChange={() => onChange(p)}
              className="sr-only"
            />
            {p === 'exact' ? t('precisionExact') : t('precisionArea')}
          </label>
        ))}
      </div>
      {value === 'approximate' && <p className="mt-2 text-sm text-slate-600">{t('precisionAreaNote')}</p>}
    </fieldset>
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
