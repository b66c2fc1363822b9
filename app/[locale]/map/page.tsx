import type { Metadata } from 'next';
import { MapView } from '@/components/dashboard/map-view';
import { clientPage } from '@/components/ui/client-page';
import { titled } from '@/lib/page-title';
import { appManifestPath } from '@/lib/seo';
import type { Locale } from '@/i18n/routing';

/** `/map?id=ID`: the subscriber's map of one location request, kept current by the live stream (polling where it fails). */
export default clientPage(MapView, ['Map', 'Dashboard', 'Auth']);

const title = titled('map');

/**
 * Its own tab title, not for search engines (robots.txt disallows it too); the map installs as the dashboard's app
 * (lib/seo.ts `appManifestPath`).
 */
export async function generateMetadata(props: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
  const { locale } = await props.params;
  return { ...(await title(props)), manifest: appManifestPath(locale) };
}
