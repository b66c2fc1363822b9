import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/pay-success?order=CODE` (SPEC §2): the same status view as `/paystatus`; it shows success only once paid. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
