import { CancelSignedIn } from '@/components/billing/cancel-signed-in';
import { clientPage } from '@/components/ui/client-page';

/** `/cancel-subscription` (SPEC §2): cancel the signed-in subscriber's subscription at the next billing date. */
export default clientPage(CancelSignedIn, ['Cancel']);
