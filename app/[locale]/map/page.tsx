import { MapView } from '@/components/dashboard/map-view';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/map?id=ID`: the subscriber's map of one location request, kept current by the live stream (polling where it fails). */
export default clientPage(MapView, ['Map', 'Dashboard', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('map');
