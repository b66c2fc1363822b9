'use client';
import { useLocale } from 'next-intl';
import { localePath } from '@/i18n/routing';
import { buyAgainPath } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';

/**
 * "Buy again", offered where no subscription is left (My locations, Billing, a refunded order's status page): the
 * home page's locate box, which a signed-in buyer is not redirected away from (`BUY_AGAIN_PATH`,
 * docs/rules.md#routes), opened with `phone` (the number of the buyer's last request or order, as shown) and the
 * account's e-mail filled in (`buyAgainPath`). `label` is the caller's translated text; `className` replaces the
 * dashboard's button style.
 */
export function BuyAgainLink({
  label,
  phone,
  className = 'inline-flex min-h-11 items-center rounded-lg bg-brand px-4 text-sm font-semibold text-white',
}: {
  label: string;
  /** The number to buy for again, as shown (international format); none: the box opens with the e-mail only. */
  phone?: string | null;
  className?: string;
}) {
  return (
    <Link href={localePath(useLocale(), buyAgainPath(phone))} className={className} data-testid="buy-again">
      {label}
    </Link>
  );
}
