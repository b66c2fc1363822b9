import { ConsentPanel } from '@/components/share/consent-panel';
import { clientPage } from '@/components/ui/client-page';

/** `/location?c=CODE`: the phone owner's consent page (works in any phone browser, no app). */
export default clientPage(ConsentPanel, ['Consent']);
