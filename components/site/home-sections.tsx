import { getImageProps } from 'next/image';
import type { Translator } from '@/i18n/messages';
import { messageLanguage } from '@/i18n/messages';
import consentEn from '@/public/demo/en/consent.png';
import mapEn from '@/public/demo/en/map.png';
import consentEs from '@/public/demo/es/consent.png';
import mapEs from '@/public/demo/es/map.png';
import consentId from '@/public/demo/id/consent.png';
import mapId from '@/public/demo/id/map.png';
import { FaqItems, HOME_FAQ } from './faq-list';
import { Icon, type IconName } from './icon';
import { Link } from '@/components/ui/link';

/** The demo screenshots per page language (`npm run demo:images`); en-PH shows the English pages. */
const SHOTS = {
  en: { consent: consentEn, map: mapEn },
  es: { consent: consentEs, map: mapEs },
  id: { consent: consentId, map: mapId },
} as const;

const section = 'home-section';
const h2 = 'section-title';

/**
 * A home section of cards: an anchored h2 and a grid of items, each with its icon (Lucide, from the sprite: no
 * client code), an h3 and a paragraph (numbered for steps); `span` lets an item take more columns.
 */
function CardsSection({
  id,
  title,
  items,
  numbered = false,
  grid,
}: {
  id: string;
  title: string;
  items: { title: string; text: string; icon: IconName; span?: string }[];
  numbered?: boolean;
  grid: string;
}) {
  const List = numbered ? 'ol' : 'ul';
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={section} data-aos="fade-up">
      <h2 id={`${id}-title`} className={h2}>
        {title}
      </h2>
      <List className={`mt-6 grid gap-6 ${grid}`}>
        {items.map((item, i) => (
          <li key={item.title} className={`card ${item.span ?? ''}`}>
            <span className="card-head">
              <span aria-hidden className="icon-badge">
                <Icon name={item.icon} />
              </span>
              {numbered && (
                <span aria-hidden className="text-3xl font-bold text-brand">
                  {i + 1}
                </span>
              )}
            </span>
            <h3 className="card-title">{item.title}</h3>
            <p className="card-text">{item.text}</p>
          </li>
        ))}
      </List>
    </section>
  );
}

// The home page's sections of text: server components given their translator (next-intl's getTranslations in the
// page), so neither their text nor their code is in a browser bundle.

/** "How to track" (docs/rules.md#routes steps): the three real steps, numbered. */
export function StepsSection({ t }: { t: Translator<'Home'> }) {
  const icons: IconName[] = ['smartphone', 'message-square-text', 'map-pin'];
  const items = ([1, 2, 3] as const).map((i) => ({
    title: t(`step${i}Title`),
    text: t(`step${i}Text`),
    icon: icons[i - 1],
  }));
  return <CardsSection id="how" title={t('stepsTitle')} items={items} numbered grid="md:grid-cols-3" />;
}

/** Advantages (docs/rules.md#routes): four that the product backs (docs/rules.md#honest-copy: no "anonymous"). */
export function AdvantagesSection({ t }: { t: Translator<'Home'> }) {
  const icons: IconName[] = ['globe', 'shield-check', 'lock-keyhole', 'circle-x'];
  const items = ([1, 2, 3, 4] as const).map((i) => ({
    title: t(`adv${i}Title`),
    text: t(`adv${i}Text`),
    icon: icons[i - 1],
  }));
  return <CardsSection id="advantages" title={t('advantagesTitle')} items={items} grid="sm:grid-cols-2" />;
}

/**
 * Features (docs/rules.md#the-product): only the features the product has; unbuilt ones are not advertised, and the
 * data-leak check only when `dataLeaks` says this server offers it (the page decides, from its settings).
 */
export function FeaturesSection({ t, dataLeaks }: { t: Translator<'Home'>; dataLeaks: boolean }) {
  const icons: Record<number, IconName> = {
    1: 'link-2',
    2: 'navigation',
    3: 'search',
    4: 'locate-fixed',
    5: 'wifi',
    6: 'globe',
    7: 'shield-check',
  };
  const shown = [1, 2, 3, 4, 5, 6, ...(dataLeaks ? [7] : [])];
  // No empty cell on a desktop (6 columns): three then two wide cards, two rows of three, or three then four wide
  // ones; on a tablet (2 columns) an odd last card spans the row.
  const spans =
    shown.length === 5
      ? ['lg:col-span-2', 'lg:col-span-2', 'lg:col-span-2', 'lg:col-span-3', 'md:col-span-2 lg:col-span-3']
      : shown.length === 7
        ? [
            ...Array<string>(3).fill('lg:col-span-2'),
            ...Array<string>(3).fill('lg:col-span-3'),
            'md:col-span-2 lg:col-span-3',
          ]
        : Array<string>(shown.length).fill('lg:col-span-2');
  const items = shown.map((i, n) => ({
    title: t(`feature${i as 1}Name`),
    text: t(`feature${i as 1}Description`),
    icon: icons[i],
    span: spans[n],
  }));
  return <CardsSection id="features" title={t('featuresTitle')} items={items} grid="md:grid-cols-2 lg:grid-cols-6" />;
}

/**
 * Demo: screenshots of the real consent page and map with test data, marked as a demo, in the page's
 * language (made by `npm run demo:images`). Served as
 * AVIF/WebP in the sizes needed by next/image.
 */
export function DemoSection({ t, locale }: { t: Translator<'Home'>; locale: string }) {
  const images = SHOTS[messageLanguage(locale)];
  const shots = [
    { src: images.consent, alt: t('demoConsentAlt'), caption: t('demoConsentCaption') },
    { src: images.map, alt: t('demoMapAlt'), caption: t('demoMapCaption') },
  ];
  return (
    <section id="demo" aria-labelledby="demo-title" className={section} data-aos="fade-up">
      <h2 id="demo-title" className={h2}>
        {t('demoTitle')}
      </h2>
      <p className="mt-2 inline-block rounded-full bg-amber-50 px-3 py-1 text-sm text-amber-900">{t('demoNote')}</p>
      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        {shots.map((s) => (
          <figure key={s.caption} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
            {/* getImageProps: next/image's optimizer (AVIF/WebP, sized srcset) without its client component. */}
            {/* eslint-disable-next-line jsx-a11y/alt-text, @next/next/no-img-element -- alt comes from the props */}
            <img
              {...getImageProps({
                src: s.src,
                alt: s.alt,
                sizes: '(min-width: 640px) 320px, 90vw',
                loading: 'lazy',
              }).props}
              className="demo-shot"
            />
            <figcaption className="mt-3 text-center text-sm text-slate-700">{s.caption}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

/**
 * FAQ (docs/rules.md#routes: the questions of HOME_FAQ, then a link to `/faq`) and contact (the header's Contact anchor). `prefix`:
 * the locale's path prefix (`/es`; empty for English).
 */
export function FaqAndContactSections({
  t,
  faq,
  prefix,
}: {
  t: Translator<'Home'>;
  faq: Translator<'Faq'>;
  prefix: string;
}) {
  return (
    <>
      <section id="faq" aria-labelledby="faq-title" className={section}>
        <h2 id="faq-title" className={`${h2} mb-6`}>
          {t('faqTitle')}
        </h2>
        <FaqItems
          headingLevel="h3"
          items={HOME_FAQ.map((i) => ({ title: faq(`q${i}Title`), description: faq(`q${i}Description`) }))}
        />
        <Link href={`${prefix}/faq/`} className="mt-4 inline-block min-h-6 font-semibold text-brand underline">
          {t('faqAll')}
        </Link>
      </section>
      <section id="contact" aria-labelledby="contact-title" className={section}>
        <h2 id="contact-title" className={h2}>
          {t('contactTitle')}
        </h2>
        <p className="mt-3 text-slate-700">{t('contactText')}</p>
        <Link
          href={`${prefix}/contact-us/`}
          className="mt-4 inline-block rounded-lg bg-brand px-5 py-3 font-semibold text-white hover:bg-brand-dark"
        >
          {t('contactLink')}
        </Link>
      </section>
    </>
  );
}
