import { NewRequest } from '@/components/dashboard/new-request';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/getLocation` (SPEC §2): a subscriber's new location request (number, requester name and SMS text). */
export default clientPage(NewRequest, ['Dashboard', 'LocateBox']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
