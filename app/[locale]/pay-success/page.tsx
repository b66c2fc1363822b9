import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/pay-success?order=CODE` (docs/rules.md#routes): the same status view as `/paystatus`; it shows success only once paid. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('paySuccess');
