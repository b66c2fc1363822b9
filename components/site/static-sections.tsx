import { createTranslator } from 'next-intl';
import type { ReactNode } from 'react';
import { messagesFor, type Messages, type Namespace, type Translator } from '@/i18n/messages';
import type { Locale } from '@/i18n/routing';
import { localePrefixOf } from '@/i18n/routing';
import { LandingDetails, LandingHeading } from '../landing/landing-intro';
import type { LandingPage } from '../landing/landing-page';
import { FooterContent } from '../ui/footer-content';
import { HeaderLinks, HeaderMenu } from './header-links';
import { AdvantagesSection, DemoSection, FaqAndContactSections, FeaturesSection, StepsSection } from './home-sections';
import { situations, SituationsRow } from './situation-card';

/** The static sections by name, with the arguments each one takes (small: they are written into the RSC payload). */
export type StaticSections = {
  /** The start of the header's row: home link, section links and the free tools' dropdown (every page). */
  'header-links': { product: string };
  /** The header's menu on small screens (every page). */
  'header-menu': Record<string, never>;
  /** The site footer's links and lines (every page). */
  footer: { company: string };
  /** A landing page's heading and one-line summary (the home page and the locate-box landing pages). */
  'landing-intro': { page: LandingPage };
  /** The same pages' lead, points and illustration (after the locate box on a phone). */
  'landing-details': { page: LandingPage };
  /** Home: how to track and the advantages. */
  'home-steps': Record<string, never>;
  /** Home: the situations before the carousel takes over. */
  'home-situations': Record<string, never>;
  /** Home: the features (the data-leak check only when `dataLeaks`) and the demo. */
  'home-features': { dataLeaks: boolean };
  /** Home: the FAQ and contact sections. */
  'home-faq': Record<string, never>;
};
export type StaticSectionName = keyof StaticSections;

/** What every section's renderer is given: translators of the locale's catalogue, the locale and its path prefix. */
type Context = {
  t: <NS extends Namespace>(namespace: NS) => Translator<NS>;
  locale: Locale;
  prefix: string;
};

/** Each section's renderer, given its own arguments. */
const RENDERERS: { [N in StaticSectionName]: (args: StaticSections[N], c: Context) => ReactNode } = {
  'header-links': ({ product }, { t, prefix }) => <HeaderLinks t={t('Nav')} prefix={prefix} product={product} />,
  'header-menu': (_, { t, prefix }) => <HeaderMenu t={t('Nav')} prefix={prefix} />,
  footer: ({ company }, { t, prefix }) => <FooterContent t={t('Footer')} prefix={prefix} company={company} />,
  'landing-intro': ({ page }, { t }) => <LandingHeading t={t(page)} />,
  'landing-details': ({ page }, { t }) => <LandingDetails t={t(page)} home={t('Home')} />,
  'home-steps': (_, { t }) => (
    <>
      <StepsSection t={t('Home')} />
      <AdvantagesSection t={t('Home')} />
    </>
  ),
  'home-situations': (_, { t }) => <SituationsRow items={situations(t('Home'))} />,
  'home-features': ({ dataLeaks }, { t, locale }) => (
    <>
      <FeaturesSection t={t('Home')} dataLeaks={dataLeaks} />
      <DemoSection t={t('Home')} locale={locale} />
    </>
  ),
  'home-faq': (_, { t, prefix }) => <FaqAndContactSections t={t('Home')} faq={t('Faq')} prefix={prefix} />,
};

/**
 * Renders static section `name` in `locale` with `args`. Only the server has this module: the package's
 * `imports` field (`#static-sections`) gives the browser bundle static-sections.browser.ts instead, so neither the
 * sections' text nor their code reach the browser, and the RSC payload carries only the section's name and `args`.
 * The text comes from the same catalogues as the server components' (`messagesFor`, i18n/messages.ts).
 */
export function renderStaticSection<N extends StaticSectionName>(
  name: N,
  locale: Locale,
  args: StaticSections[N],
): ReactNode {
  const messages = messagesFor(locale);
  const t = <NS extends Namespace>(namespace: NS) => createTranslator<Messages, NS>({ locale, messages, namespace });
  const render = RENDERERS[name] as (args: StaticSections[N], c: Context) => ReactNode;
  return render(args, { t, locale, prefix: localePrefixOf(locale) });
}
