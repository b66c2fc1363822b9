import { NewRequest } from '@/components/dashboard/new-request';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/getLocation` (docs/rules.md#routes): a subscriber's new location request (number, requester name and SMS text). */
export default clientPage(NewRequest, ['Dashboard', 'LocateBox']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('getLocation');
