'use client';
import { useTranslations } from 'next-intl';
import type { OrderView } from '@/lib/api/types';

/** The payment facts under a pay page (SPEC §3): card-statement descriptor, order id and the support address. */
export function OrderFacts({ order }: { order: OrderView }) {
  const t = useTranslations('Checkout');
  return (
    <p className="mt-4 text-xs text-slate-500">
      {t('facts', { descriptor: order.billingDescriptor, code: order.code, support: order.supportEmail })}
    </p>
  );
}
