'use client';
import { useLocale, useTranslations } from 'next-intl';
import { Link } from '@/components/ui/link';
import { localePath } from '@/i18n/routing';

/**
 * What the pay pages (`/checkout/`, `/checkout/wallet/`, `/paystatus/`, `/pay-success/`) show when the address names
 * no order or one the server does not know (a shortened link, a bookmark of an old page): a plain explanation and the
 * way back to the start — the home page's locate box — instead of a bare error. Needs the `Checkout` messages.
 */
export function NoOrder() {
  const t = useTranslations('Checkout');
  const locale = useLocale();
  return (
    <section className="mx-auto max-w-lg rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200" data-testid="no-order">
      <h1 className="text-2xl font-bold">{t('noOrderTitle')}</h1>
      <p className="mt-3 text-slate-700">{t('noOrderText')}</p>
      <Link
        href={localePath(locale, '/#top')}
        className="mt-6 inline-flex min-h-11 items-center rounded-lg bg-brand px-5 py-3 font-semibold text-white"
      >
        {t('noOrderHome')}
      </Link>
    </section>
  );
}
