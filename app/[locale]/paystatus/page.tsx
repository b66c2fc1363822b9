import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/paystatus?order=CODE` (SPEC §2): the payment outcome the provider confirmed. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
