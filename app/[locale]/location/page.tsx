import { ConsentPanel } from '@/components/share/consent-panel';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/location?c=CODE`: the phone owner's consent page (works in any phone browser, no app). */
export default clientPage(ConsentPanel, ['Consent']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
