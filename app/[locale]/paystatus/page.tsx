import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/paystatus?order=CODE` (docs/rules.md#routes): the payment outcome the provider confirmed. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('paystatus');
