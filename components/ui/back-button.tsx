'use client';
import { useTranslations } from 'next-intl';

/** The Back button of the 404 page (docs/rules.md#routes): goes back in history, or to `fallbackHref` when there is none. */
export function BackButton({ fallbackHref }: { fallbackHref: string }) {
  const t = useTranslations('NotFound');
  return (
    <button
      type="button"
      className="rounded-lg bg-brand px-6 py-3 font-semibold text-white hover:bg-brand-dark"
      onClick={() => (history.length > 1 ? history.back() : location.assign(fallbackHref))}
    >
      {t('back')}
    </button>
  );
}
