import { CancelByEmail } from '@/components/billing/cancel-by-email';
import { clientPage } from '@/components/ui/client-page';

/** `/cancel` (SPEC §2): cancel a subscription without signing in, by a link e-mailed to the account's address. */
export default clientPage(CancelByEmail, ['Cancel']);
