import { NewRequest } from '@/components/dashboard/new-request';
import { clientPage } from '@/components/ui/client-page';

/** `/getLocation` (SPEC §2): a subscriber's new location request (number and SMS text). */
export default clientPage(NewRequest, ['Dashboard']);
