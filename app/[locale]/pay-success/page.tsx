import { PayStatus } from '@/components/payment/pay-status';
import { clientPage } from '@/components/ui/client-page';

/** `/pay-success?order=CODE` (SPEC §2): the same status view as `/paystatus`; it shows success only once paid. */
export default clientPage(PayStatus, ['PayStatus', 'Checkout']);
