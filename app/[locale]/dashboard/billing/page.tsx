import { BillingView } from '@/components/dashboard/billing-view';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/dashboard/billing` (docs/rules.md#routes): subscriptions and orders; where `/login?redirect=billing` leads. */
export default clientPage(BillingView, ['Billing', 'Dashboard', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('billing');
