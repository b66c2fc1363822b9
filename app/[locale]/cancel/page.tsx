import { CancelByEmail } from '@/components/billing/cancel-by-email';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/cancel` (docs/rules.md#routes): cancel a subscription without signing in, by a link e-mailed to the account's address. */
export default clientPage(CancelByEmail, ['Cancel']);

/** Its own tab title, and the canonical URL and hreflang of an indexed page. */
export const generateMetadata = titled('cancel', '/cancel/');
