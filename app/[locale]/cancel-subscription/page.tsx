import { CancelSignedIn } from '@/components/billing/cancel-signed-in';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/cancel-subscription` (SPEC §2): cancel the signed-in subscriber's subscription at the next billing date. */
export default clientPage(CancelSignedIn, ['Cancel']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
