import type { Translator } from '@/i18n/messages';
import { ConsentFlow } from '../site/consent-flow';
import { Icon } from '../site/icon';
import type { LandingPage } from './locate-landing';

/**
 * The landing page's heading, lead, points and illustration (a static section, components/site/static-sections.tsx):
 * `t` of the page's namespace, `home` of `Home` (the illustration's captions).
 */
export function LandingIntro({ t, home }: { t: Translator<LandingPage>; home: Translator<'Home'> }) {
  return (
    <section>
      <h1 className="text-3xl font-bold leading-tight text-slate-900 sm:text-4xl">{t('heading')}</h1>
      <p className="mt-4 text-lg text-slate-700">{t('lead')}</p>
      <ul className="mt-6 space-y-3 text-slate-700">
        {(['point1', 'point2', 'point3'] as const).map((key) => (
          <li key={key} className="flex gap-2">
            <Icon name="check" className="mt-0.5 size-5 shrink-0 text-brand" />
            {t(key)}
          </li>
        ))}
      </ul>
      <ConsentFlow steps={[home('flow1'), home('flow2'), home('flow3')]} />
    </section>
  );
}
