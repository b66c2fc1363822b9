import { ResetForm } from '@/components/account/reset-form';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/reset` (docs/rules.md#routes): reset the password with the e-mailed code. */
export default clientPage(ResetForm, ['Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('reset');
