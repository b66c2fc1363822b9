import { getImageProps } from 'next/image';
import { getLocale, getTranslations } from 'next-intl/server';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import consentShot from '@/public/demo/consent.png';
import mapShot from '@/public/demo/map.png';
import { FaqList } from './faq-list';

const section = 'scroll-mt-20 py-12';
const h2 = 'text-2xl font-bold text-slate-900 sm:text-3xl';

/** "How to track" (SPEC §2 steps): the three real steps, numbered. */
export async function StepsSection() {
  const t = await getTranslations('Home');
  return (
    <section id="how" aria-labelledby="how-title" className={section} data-aos="fade-up">
      <h2 id="how-title" className={h2}>
        {t('stepsTitle')}
      </h2>
      <ol className="mt-6 grid gap-6 md:grid-cols-3">
        {([1, 2, 3] as const).map((i) => (
          <li key={i} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
            <span aria-hidden className="text-3xl font-bold text-brand">
              {i}
            </span>
            <h3 className="mt-2 text-lg font-semibold">{t(`step${i}Title`)}</h3>
            <p className="mt-2 text-slate-700">{t(`step${i}Text`)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Advantages (SPEC §2): four that the product backs (ARCHITECTURE §8: no "anonymous"). */
export async function AdvantagesSection() {
  const t = await getTranslations('Home');
  return (
    <section id="advantages" aria-labelledby="advantages-title" className={section} data-aos="fade-up">
      <h2 id="advantages-title" className={h2}>
        {t('advantagesTitle')}
      </h2>
      <ul className="mt-6 grid gap-6 sm:grid-cols-2">
        {([1, 2, 3, 4] as const).map((i) => (
          <li key={i} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold">{t(`adv${i}Title`)}</h3>
            <p className="mt-2 text-slate-700">{t(`adv${i}Text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Features (SPEC §1): only the features the product has; unbuilt ones are not advertised (issue 6 item 4). */
export async function FeaturesSection() {
  const t = await getTranslations('Home');
  return (
    <section id="features" aria-labelledby="features-title" className={section} data-aos="fade-up">
      <h2 id="features-title" className={h2}>
        {t('featuresTitle')}
      </h2>
      <ul className="mt-6 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {([1, 2, 3, 4, 5] as const).map((i) => (
          <li key={i} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold">{t(`feature${i}Name`)}</h3>
            <p className="mt-2 text-slate-700">{t(`feature${i}Description`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Demo (issue 6 item 1): screenshots of the real consent page and map with test data, marked as a demo. Served as
 * AVIF/WebP in the sizes needed by next/image.
 */
export async function DemoSection() {
  const t = await getTranslations('Home');
  const shots = [
    { src: consentShot, alt: t('demoConsentAlt'), caption: t('demoConsentCaption') },
    { src: mapShot, alt: t('demoMapAlt'), caption: t('demoMapCaption') },
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
              className="mx-auto h-auto w-full max-w-xs rounded-xl ring-1 ring-slate-200"
            />
            <figcaption className="mt-3 text-center text-sm text-slate-700">{s.caption}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

/** FAQ (SPEC §2) and contact (the header's Contact anchor). */
export async function FaqAndContactSections() {
  const t = await getTranslations('Home');
  const prefix = prefixOf((await getLocale()) as AppLocale);
  return (
    <>
      <section id="faq" aria-labelledby="faq-title" className={section}>
        <h2 id="faq-title" className={`${h2} mb-6`}>
          {t('faqTitle')}
        </h2>
        <FaqList headingLevel="h3" />
      </section>
      <section id="contact" aria-labelledby="contact-title" className={section}>
        <h2 id="contact-title" className={h2}>
          {t('contactTitle')}
        </h2>
        <p className="mt-3 text-slate-700">{t('contactText')}</p>
        <a
          href={`${prefix}/contact-us/`}
          className="mt-4 inline-block rounded-lg bg-brand px-5 py-3 font-semibold text-white hover:bg-brand-dark"
        >
          {t('contactLink')}
        </a>
      </section>
    </>
  );
}
