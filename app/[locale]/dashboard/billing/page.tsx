import { BillingView } from '@/components/dashboard/billing-view';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/dashboard/billing` (SPEC §2): subscriptions and orders; where `/login?redirect=billing` leads. */
export default clientPage(BillingView, ['Billing', 'Dashboard', 'Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
