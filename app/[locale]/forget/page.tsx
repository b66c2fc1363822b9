import { ForgetForm } from '@/components/account/forget-form';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/forget` (SPEC §2): ask for a password-reset code. */
export default clientPage(ForgetForm, ['Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
