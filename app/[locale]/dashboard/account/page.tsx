import { AccountPanel } from '@/components/account/account-panel';
import { clientPage } from '@/components/ui/client-page';

/** `/dashboard/account`: change the password (required after a temporary one) and sign out. */
export default clientPage(AccountPanel, ['Auth', 'Dashboard']);
