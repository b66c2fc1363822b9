import { LocationList } from '@/components/dashboard/location-list';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/dashboard/locations`: the subscriber's location requests. */
export default clientPage(LocationList, ['Dashboard', 'Map', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('locations');
