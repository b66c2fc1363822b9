import { getTranslations, setRequestLocale } from 'next-intl/server';
import type { Locale } from '@/i18n/routing';
import type { PagePath } from '@/lib/routing/pages';
import { pageMetadata } from '@/lib/seo';
import { SITE_DEFAULTS, site } from '@/lib/site';

/** Static and legal pages whose text lives in messages/ under `Legal.<page>`. */
export type LegalKey = 'aboutUs' | 'privacyPolicy' | 'termsOfUse' | 'payMethod' | 'intellectual' | 'cookie';

/** Placeholders of the legal texts: product, company and the support address (settings, read at build time). */
export function legalParams() {
  return {
    product: site.product,
    company: site.company,
    support: process.env.SUPPORT_EMAIL || SITE_DEFAULTS.support,
  };
}

/**
 * A static page rendered from messages: the title as h1, then sections `s1h`/`s1p1…` in order, each an
 * h2 with its paragraphs. `anchors` gives sections stable ids (e.g. the terms' refund section is `#refund`).
 */
export async function LegalPage({ page, anchors = {} }: { page: LegalKey; anchors?: Record<number, string> }) {
  const t = await getTranslations(`Legal.${page}`);
  const has = (key: string) => t.has(key as 'title');
  const text = (key: string) => t(key as 'title', legalParams());
  const sections = Array.from({ length: 12 }, (_, i) => i + 1).filter((i) => has(`s${i}h`));
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-3 text-lg text-slate-700">{t('description')}</p>
      {sections.map((i) => (
        <section key={i} id={anchors[i] ?? `s${i}`} className="mt-8 scroll-mt-20">
          <h2 className="text-xl font-semibold text-slate-900">{text(`s${i}h`)}</h2>
          {[1, 2, 3, 4]
            .filter((p) => has(`s${i}p${p}`))
            .map((p) => (
              <p key={p} className="prose-answer">
                {text(`s${i}p${p}`)}
              </p>
            ))}
        </section>
      ))}
    </article>
  );
}

/** Page metadata of a legal page from its messages. */
export async function legalMetadata(locale: string, page: LegalKey | 'faq' | 'contactUs') {
  const t = await getTranslations({ locale: locale as 'en', namespace: `Legal.${page}` });
  return { title: t('title'), description: t('description') };
}

/** The props Next.js gives a page of app/[locale]/. */
type PageProps = { params: Promise<{ locale: Locale }> };

/**
 * The route module of a legal page at `path` (app/[locale]/<path>/page.tsx): `Page` renders `LegalPage` in the
 * request's locale (static per locale), `generateMetadata` gives its title, description, canonical URL and hreflang
 * (lib/seo.ts `pageMetadata`). A page file exports them as `default` and `generateMetadata`.
 */
export function legalRoute(page: LegalKey, path: PagePath, anchors?: Record<number, string>) {
  async function Page({ params }: PageProps) {
    const { locale } = await params;
    setRequestLocale(locale);
    return <LegalPage page={page} anchors={anchors} />;
  }
  async function generateMetadata({ params }: PageProps) {
    const { locale } = await params;
    const { title, description } = await legalMetadata(locale, page);
    return pageMetadata(locale, path, title, description);
  }
  return { Page, generateMetadata };
}
