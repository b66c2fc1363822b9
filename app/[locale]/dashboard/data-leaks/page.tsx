import { DataLeaksView } from '@/components/dashboard/data-leaks-view';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/dashboard/data-leaks`: the data-leak check of the subscriber's own account e-mail. */
export default clientPage(DataLeaksView, ['DataLeaks', 'Dashboard', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('dataLeaks');
