import { AccountPanel } from '@/components/account/account-panel';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/dashboard/account`: change the password (required after a temporary one) and sign out. */
export default clientPage(AccountPanel, ['Auth', 'Dashboard']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
