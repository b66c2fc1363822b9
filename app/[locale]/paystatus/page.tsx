import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';

/** `/paystatus?order=CODE` (SPEC §2): the payment outcome the provider confirmed. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);
