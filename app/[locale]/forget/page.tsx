import { ForgetForm } from '@/components/account/forget-form';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/forget` (docs/rules.md#routes): ask for a password-reset code. */
export default clientPage(ForgetForm, ['Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('forget');
