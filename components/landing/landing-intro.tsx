import type { Translator } from '@/i18n/messages';
import { ConsentFlow } from '../site/consent-flow';
import { Icon } from '../site/icon';
import type { LandingPage } from './landing-page';

// A landing page's text around the locate box (server components), in two parts so that
// a phone shows the heading, one line and then the box, and everything else after it (locate-landing.tsx).

/**
 * The landing page's heading and, on phones only, its one-line summary (`oneLine`; a wider screen shows the lead in
 * LandingDetails right under the heading instead). `t` of the page's namespace.
 */
export function LandingHeading({ t }: { t: Translator<LandingPage> }) {
  return (
    <div>
      <h1 className="text-[1.375rem] font-bold leading-tight text-slate-900 min-[400px]:text-3xl sm:text-4xl">
        {t('heading')}
      </h1>
      <p className="mt-1 text-slate-700 lg:hidden">{t('oneLine')}</p>
    </div>
  );
}

/**
 * The landing page's lead, three points and the consent-flow illustration: under the locate box on a phone, under
 * the heading beside the box on a wide screen. `t` of the page's namespace, `home` of `Home` (the illustration's
 * captions).
 */
export function LandingDetails({ t, home }: { t: Translator<LandingPage>; home: Translator<'Home'> }) {
  return (
    <div>
      <p className="text-lg text-slate-700">{t('lead')}</p>
      <ul className="mt-6 space-y-3 text-slate-700">
        {(['point1', 'point2', 'point3'] as const).map((key) => (
          <li key={key} className="flex gap-2">
            <Icon name="check" className="mt-0.5 size-5 shrink-0 text-brand" />
            {t(key)}
          </li>
        ))}
      </ul>
      <ConsentFlow steps={[home('flow1'), home('flow2'), home('flow3')]} />
    </div>
  );
}
