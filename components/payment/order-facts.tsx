'use client';
import { useTranslations } from 'next-intl';
import type { OrderView } from '@/lib/contracts/orders';

/**
 * The payment facts under a pay page (docs/rules.md#entities): the statement descriptor (said of the card, or of the
 * wallet for an order paid by wallet: a wallet payer has no card statement to look at), the order's short reference
 * (`CH-7K4M-2Q`) and the support address.
 */
export function OrderFacts({ order }: { order: OrderView }) {
  const t = useTranslations('Checkout');
  return (
    <p className="mt-4 text-xs text-slate-500">
      {t(order.method === 'wallet' ? 'factsWallet' : 'facts', {
        descriptor: order.billingDescriptor,
        code: order.reference,
        support: order.supportEmail,
      })}
    </p>
  );
}
