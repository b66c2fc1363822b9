import { LocationList } from '@/components/dashboard/location-list';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/dashboard/locations`: the subscriber's location requests. */
export default clientPage(LocationList, ['Dashboard', 'Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
