import { DataLeaksView } from '@/components/dashboard/data-leaks-view';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/dashboard/data-leaks` (issue 15 §1): the data-leak check of the subscriber's own account e-mail. */
export default clientPage(DataLeaksView, ['DataLeaks', 'Dashboard', 'Auth']);

/** Not for search engines (robots.txt disallows `/dashboard/` too). */
export const metadata = NO_INDEX;
