import { getTranslations } from 'next-intl/server';
import type { AppLocale } from '@/lib/routing/rules';
import { pageMetadata } from '@/lib/seo';
import { LOCATE_VALIDATION } from '@/lib/validation/schemas';
import { LocateBox } from '../locate/locate-box';
import { LandingDetails, LandingHeading } from './landing-intro';
import { ClientMessages } from '../ui/client-messages';
import type { LandingPage } from './landing-page';

/** Landing pages with a title and lead in messages (the locate-box ones and the free tools). */
type TitledPage = Exclude<LandingPage, 'Home'> | 'Landing.phoneFinder' | 'Landing.ipTracker' | 'UsernameLookup';

/**
 * A landing page around the locate box (docs/rules.md#routes): its own heading, lead, three points and the consent-flow
 * illustration from messages/ (`page` names the namespace), and the locate box. On a phone the box
 * comes right after the heading and a one-line summary, so a visitor from an ad sees the phone field and "Check
 * number" on the first screen (390×844 and 360×740, with the cookie bar shown; e2e/screens.spec.ts); the lead, points and
 * illustration follow it. From `lg` up, the text is on the left and the box on the right, until the number is
 * identified: the box (`data-identified`) then spans the page under the heading, with the pay step in its own right
 * column (components/locate/identified.tsx), rather than running far below a column of text. Used by the home page,
 * `/gps-locator`, and by `/locate` and `/phone-locate` (one's own phone).
 */
export async function LocateLanding({ page }: { page: LandingPage }) {
  const t = await getTranslations(page);
  const home = await getTranslations('Home');
  return (
    <div className="grid gap-3 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:items-start lg:gap-x-8 lg:gap-y-6 lg:has-[[data-identified]]:grid-cols-1">
      <div className="lg:col-start-1">
        <LandingHeading t={t} />
      </div>
      <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:has-[[data-identified]]:col-start-1 lg:has-[[data-identified]]:row-span-1 lg:has-[[data-identified]]:row-start-2">
        <ClientMessages namespaces={['LocateBox', 'PhoneFacts', 'Pay']} validation={LOCATE_VALIDATION}>
          <LocateBox />
        </ClientMessages>
      </div>
      <div className="mt-4 lg:col-start-1 lg:mt-0">
        <LandingDetails t={t} home={home} />
      </div>
    </div>
  );
}

/** Page metadata of a landing page at `path`: its own title and description, canonical and hreflang (lib/seo). */
export async function landingMetadata(locale: AppLocale, page: TitledPage, path: string) {
  const t = await getTranslations({ locale: locale as 'en', namespace: page });
  return pageMetadata(locale, path, t('title'), t('lead'));
}
