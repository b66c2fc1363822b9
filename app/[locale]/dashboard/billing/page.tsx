import { BillingView } from '@/components/dashboard/billing-view';
import { clientPage } from '@/components/ui/client-page';

/** `/dashboard/billing` (SPEC §2): subscriptions and orders; where `/login?redirect=billing` leads. */
export default clientPage(BillingView, ['Billing', 'Dashboard', 'Auth']);
