import { RevealLocation } from '@/components/dashboard/reveal-location';
import { clientPage } from '@/components/ui/client-page';

/** `/reveal-location` (SPEC §2): after purchase, the first request's progress until the owner shares, then its map. */
export default clientPage(RevealLocation, ['Reveal']);
