import { RevealLocation } from '@/components/dashboard/reveal-location';
import { clientPage } from '@/components/ui/client-page';
import { NO_INDEX } from '@/lib/seo';

/** `/reveal-location` (SPEC §2): after purchase, the first request's progress until the owner shares, then its map. */
export default clientPage(RevealLocation, ['Reveal', 'Dashboard', 'Auth']);

/** Not for search engines (robots.txt disallows it too). */
export const metadata = NO_INDEX;
