import { LocationList } from '@/components/dashboard/location-list';
import { clientPage } from '@/components/ui/client-page';

/** `/dashboard/locations`: the subscriber's location requests. */
export default clientPage(LocationList, ['Dashboard']);
