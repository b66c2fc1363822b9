import { ConsentReceipts } from '@/components/dashboard/consent-receipts';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/**
 * `/dashboard/billing/consent/` (docs/features.md, "Payments and subscriptions"): the buyer's printable receipt of what
 * they agreed to at Pay, with its download; reached from Billing.
 */
export default clientPage(ConsentReceipts, ['ConsentReceipts', 'Dashboard', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows `/dashboard/` too). */
export const generateMetadata = titled('consentReceipts');
