import { AccountPanel } from '@/components/account/account-panel';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/dashboard/account`: change the password (required after a temporary one) and sign out. */
export default clientPage(AccountPanel, ['Auth', 'Dashboard']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('account');
