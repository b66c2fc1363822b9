import { CancelSignedIn } from '@/components/billing/cancel-signed-in';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/cancel-subscription` (docs/rules.md#routes): cancel the signed-in subscriber's subscription at the next billing date. */
export default clientPage(CancelSignedIn, ['Cancel']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('cancelSubscription');
