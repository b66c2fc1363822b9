'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { ConsentView } from '@/lib/contracts/consent';
import { requesterFactsText } from '@/lib/requester-facts';

/**
 * Who asks, at the top of the consent page: the requester name the buyer gave with the service, and the requester's
 * masked e-mail (or, without a name, one line with both), what we know of that account (`requesterFactsText`, in the
 * page's locale), and the buyer's note to the owner when there is one.
 */
export function RequesterCard({ view }: { view: ConsentView }) {
  const t = useTranslations('Consent');
  const locale = useLocale();
  return (
    <div className="mt-3 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" data-testid="requester">
      {view.requesterName ? (
        <>
          <p className="text-lg font-semibold text-slate-900">
            {t('whoNamed', {
              name: view.requesterName,
              product: view.product,
            })}
          </p>
          <p className="mt-1 text-sm text-slate-700">{t('account', { email: view.requester })}</p>
        </>
      ) : (
        <p className="text-slate-800">{t('who', { product: view.product, requester: view.requester })}</p>
      )}
      <p className="mt-1 text-sm text-slate-700" data-testid="requester-facts">
        {requesterFactsText(view.facts, locale, t)}
      </p>
      {view.note && (
        <figure className="mt-3 border-l-4 border-slate-300 pl-3" data-testid="owner-note">
          <figcaption className="text-xs font-medium uppercase tracking-wide text-slate-600">{t('note')}</figcaption>
          <blockquote className="mt-1 break-words text-slate-900">{view.note}</blockquote>
        </figure>
      )}
    </div>
  );
}
