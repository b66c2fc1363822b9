import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import type { Messages } from '@/i18n/messages';
import { NO_INDEX, pageMetadata } from './seo';
import { site } from './site';

/** A page with its own title in `PageTitles` (messages/*.json); descriptions end in `Description`. */
export type TitledPage = Exclude<keyof Messages['PageTitles'], `${string}Description`>;

/**
 * `generateMetadata` for a page whose content is its client island (sign-in, checkout, consent, dashboards): its own
 * tab title in the page's language, "<what the page is> — <product>", so that two tabs of the product can be told
 * apart and a screen reader announces the page (WCAG 2.2 SC 2.4.2 Page Titled). Pages kept out of search engines get
 * NO_INDEX; an indexed one (`indexed`: its path, listed in INDEXED_PAGES, e.g. `/login/`) gets `pageMetadata` with its
 * canonical URL, hreflang and the description `PageTitles.<page>Description`.
 */
export function titled(page: TitledPage, indexed?: string) {
  return async function generateMetadata({ params }: { params: Promise<{ locale: Locale }> }): Promise<Metadata> {
    const { locale } = await params;
    const t = await getTranslations({ locale, namespace: 'PageTitles' });
    const title = t(page, { product: site.product });
    if (!indexed) return { ...NO_INDEX, title };
    return pageMetadata(locale, indexed, title, t(`${page}Description` as Parameters<typeof t>[0]));
  };
}
