import { RevealLocation } from '@/components/dashboard/reveal-location';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';

/** `/reveal-location` (docs/rules.md#routes): after purchase, the first request's progress until the owner shares, then its map. */
export default clientPage(RevealLocation, ['Reveal', 'Dashboard', 'Auth']);

/** Its own tab title; not for search engines (robots.txt disallows it too). */
export const generateMetadata = titled('revealLocation');
