import { MapView } from '@/components/dashboard/map-view';
import { clientPage } from '@/components/ui/client-page';

/** `/map?id=ID`: the subscriber's map of one location request (polls every 3 s). */
export default clientPage(MapView, ['Map']);
