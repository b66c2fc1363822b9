import { getLocale, getTranslations } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import type { AppLocale } from '@/lib/routing/rules';
import { pageMetadata } from '@/lib/seo';
import { LOCATE_VALIDATION } from '@/lib/validation/schemas';
import { LocateBox } from '../locate/locate-box';
import { StaticSection } from '../site/static-section';
import { ClientMessages } from '../ui/client-messages';
import type { LandingPage } from './landing-page';

/** Landing pages with a title and lead in messages (the locate-box ones and the free tools). */
type TitledPage = Exclude<LandingPage, 'Home'> | 'Landing.phoneFinder' | 'Landing.ipTracker' | 'UsernameLookup';

/**
 * A landing page around the locate box (docs/rules.md#routes): its own heading, lead, three points and the consent-flow
 * illustration from messages/ (`page` names the namespace), and the locate box. On a phone the box
 * comes right after the heading and a one-line summary, so a visitor from an ad sees the phone field and "Check
 * number" on the first screen (390×844, with the cookie bar shown; e2e/screens.spec.ts); the lead, points and
 * illustration follow it. From `lg` up, the text is on the left and the box on the right. Used by the home page,
 * `/gps-locator`, and by `/locate` and `/phone-locate` (one's own phone).
 */
export async function LocateLanding({ page }: { page: LandingPage }) {
  const locale = (await getLocale()) as Locale;
  return (
    <div className="grid gap-3 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:items-start lg:gap-x-8 lg:gap-y-6">
      <StaticSection name="landing-intro" locale={locale} args={{ page }} className="lg:col-start-1" />
      <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <ClientMessages namespaces={['LocateBox', 'PhoneFacts', 'Pay']} validation={LOCATE_VALIDATION}>
          <LocateBox />
        </ClientMessages>
      </div>
      <StaticSection name="landing-details" locale={locale} args={{ page }} className="mt-4 lg:col-start-1 lg:mt-0" />
    </div>
  );
}

/** Page metadata of a landing page at `path`: its own title and description, canonical and hreflang (lib/seo). */
export async function landingMetadata(locale: AppLocale, page: TitledPage, path: string) {
  const t = await getTranslations({ locale: locale as 'en', namespace: page });
  return pageMetadata(locale, path, t('title'), t('lead'));
}
