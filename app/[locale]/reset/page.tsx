import { ResetForm } from '@/components/account/reset-form';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/reset` (SPEC §2): reset the password with the e-mailed code. */
export default clientPage(ResetForm, ['Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
