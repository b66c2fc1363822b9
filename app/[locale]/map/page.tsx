import { MapView } from '@/components/dashboard/map-view';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/map?id=ID`: the subscriber's map of one location request (polls every 3 s). */
export default clientPage(MapView, ['Map', 'Dashboard', 'Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
