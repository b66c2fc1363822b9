import { getTranslations } from 'next-intl/server';
import type { AppLocale } from '@/lib/routing/rules';
import { pageMetadata } from '@/lib/seo';
import { LocateBox } from '../locate/locate-box';
import { ConsentFlow } from '../site/consent-flow';
import { Icon } from '../site/icon';
import { ClientMessages } from '../ui/client-messages';

/** Message namespaces of the pages built on the locate box: the home page and the own-phone landing pages. */
type LandingPage = 'Home' | 'Landing.locate' | 'Landing.phoneLocate' | 'Landing.gpsLocator';
/** Landing pages with a title and lead in messages (the locate-box ones and the free tools). */
type TitledPage = Exclude<LandingPage, 'Home'> | 'Landing.phoneFinder' | 'Landing.ipTracker' | 'UsernameLookup';

/**
 * A landing page around the locate box (SPEC §2): its own heading, lead, three points and the consent-flow
 * illustration (issue 13 §17) from messages/
 * (`page` names the namespace), then the locate box. Used by the home page, `/gps-locator`, and by `/locate` and
 * `/phone-locate` (one's own phone).
 */
export async function LocateLanding({ page }: { page: LandingPage }) {
  const t = await getTranslations(page);
  const home = await getTranslations('Home');
  return (
    <div className="grid gap-8 lg:grid-cols-2 lg:items-start">
      <section>
        <h1 className="text-3xl font-bold leading-tight text-slate-900 sm:text-4xl">{t('heading')}</h1>
        <p className="mt-4 text-lg text-slate-700">{t('lead')}</p>
        <ul className="mt-6 space-y-3 text-slate-700">
          {(['point1', 'point2', 'point3'] as const).map((key) => (
            <li key={key} className="flex gap-2">
              <Icon name="check" className="mt-0.5 h-5 w-5 shrink-0 text-brand" />
              {t(key)}
            </li>
          ))}
        </ul>
        <ConsentFlow steps={[home('flow1'), home('flow2'), home('flow3')]} />
      </section>
      <ClientMessages namespaces={['LocateBox', 'PhoneFacts', 'Pay']}>
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
