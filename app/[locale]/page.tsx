import { getTranslations, setRequestLocale } from 'next-intl/server';
import { LocateLanding } from '@/components/landing/locate-landing';
import { PriceCardSlot } from '@/components/site/price-card-slot';
import {
  AdvantagesSection,
  DemoSection,
  FaqAndContactSections,
  FeaturesSection,
  StepsSection,
} from '@/components/site/home-sections';
import { SituationCard, situations } from '@/components/site/situation-card';
import { SituationsCarousel } from '@/components/site/situations-carousel';
import { localePrefixOf, type Locale } from '@/i18n/routing';
import { pageMetadata } from '@/lib/seo';
import { site } from '@/lib/site';
import { dataLeakCheckConfigured } from '@/server/providers/breaches';

/**
 * Home page (docs/rules.md#routes): the banner with the locate box, how to track, advantages, situations (the carousel), features,
 * the demo, the price card, FAQ and contact. Static per locale. The sections of text are server components (no
 * browser code); the locate box, the carousel and the price card are client islands, the carousel given its cards
 * rendered here (docs/decisions/0012-static-text-is-server-components.md).
 */
export default async function HomePage({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  setRequestLocale(locale);
  const t = await getTranslations('Home');
  const faq = await getTranslations('Faq');
  return (
    <>
      <div id="top" className="scroll-mt-20">
        <LocateLanding page="Home" />
      </div>
      <StepsSection t={t} />
      <AdvantagesSection t={t} />
      <section aria-labelledby="situations-title" className="py-12">
        <h2 id="situations-title" className="section-title">
          {t('situationsTitle')}
        </h2>
        <p className="mt-2 mb-6 text-sm text-slate-600">{t('situationsNote')}</p>
        <SituationsCarousel
          labels={{ prev: t('situationPrev'), next: t('situationNext') }}
          cards={situations(t).map((item) => (
            <SituationCard key={item.name} item={item} />
          ))}
        />
      </section>
      {/* Static: the build's HIBP_API_KEY decides; a server given the key later lists it once rebuilt. */}
      <FeaturesSection t={t} dataLeaks={dataLeakCheckConfigured()} />
      <DemoSection t={t} locale={locale} />
      <section id="price" aria-labelledby="price-title" className="home-section">
        <h2 id="price-title" className="mb-6 text-center section-title">
          {t('priceTitle')}
        </h2>
        <PriceCardSlot
          lang={locale}
          ctaHref="#top"
          labels={{
            label: t('priceLabel'),
            plan: t('pricePlan'),
            period: t('pricePeriod'),
            then: t('priceThen', { monthly: '{monthly}' }),
            loading: t('priceLoading'),
            benefits: ([1, 2, 3, 4, 5, 6] as const).map((i) => t(`benefit${i}`, { count: '{count}' })),
            cta: t('priceCta'),
          }}
        />
      </section>
      <FaqAndContactSections t={t} faq={faq} prefix={localePrefixOf(locale)} />
      <OrganizationJsonLd />
    </>
  );
}

/** The organisation's JSON-LD. */
function OrganizationJsonLd() {
  const data = { '@context': 'https://schema.org', '@type': 'Organization', name: site.company, brand: site.product };
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data) }} />;
}

export async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }) {
  const { locale } = await params;
  const t = await getTranslations({ locale, namespace: 'Metadata' });
  return pageMetadata(locale, '/', t('title', { product: site.product }), t('description'));
}
