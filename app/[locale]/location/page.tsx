import { ConsentPanel } from '@/components/share/consent-panel';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/location?c=CODE`: the phone owner's consent page (works in any phone browser, no app). */
export default clientPage(ConsentPanel, ['Consent']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('location');
