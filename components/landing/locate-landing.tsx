import { getLocale, getTranslations } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import type { AppLocale } from '@/lib/routing/rules';
import { pageMetadata } from '@/lib/seo';
import { LOCATE_VALIDATION } from '@/lib/validation/schemas';
import { LocateBox } from '../locate/locate-box';
import { StaticSection } from '../site/static-section';
import { ClientMessages } from '../ui/client-messages';

/** Message namespaces of the pages built on the locate box: the home page and the own-phone landing pages. */
export type LandingPage = 'Home' | 'Landing.locate' | 'Landing.phoneLocate' | 'Landing.gpsLocator';
/** Landing pages with a title and lead in messages (the locate-box ones and the free tools). */
type TitledPage = Exclude<LandingPage, 'Home'> | 'Landing.phoneFinder' | 'Landing.ipTracker' | 'UsernameLookup';

/**
 * A landing page around the locate box (SPEC §2): its own heading, lead, three points and the consent-flow
 * illustration (issue 13 §17) from messages/
 * (`page` names the namespace), then the locate box. Used by the home page, `/gps-locator`, and by `/locate` and
 * `/phone-locate` (one's own phone).
 */
export async function LocateLanding({ page }: { page: LandingPage }) {
  const locale = (await getLocale()) as Locale;
  return (
    <div className="grid gap-8 lg:grid-cols-2 lg:items-start">
      <StaticSection name="landing-intro" locale={locale} args={{ page }} />
      <ClientMessages namespaces={['LocateBox', 'PhoneFacts', 'Pay']} validation={LOCATE_VALIDATION}>
        <LocateBox />
      </ClientMessages>
    </div>
  );
}

/** Page metadata of a landing page at `path`: its own title and description, canonical and hreflang (lib/seo). */
export async function landingMetadata(locale: AppLocale, page: TitledPage, path: string) {
  const t = await getTranslations({ locale: locale as 'en', namespace: page });
  return pageMetadata(locale, path, t('title'), t('lead'));
}
