import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';

/** FAQ items q1…q9 of messages `Faq`. */
const ITEMS = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

/** The questions the home page answers in place (the rest are on `/faq`, linked below them). */
export const HOME_FAQ = [1, 2, 3, 6, 7, 8] as const;

/**
 * The FAQ accordion (docs/rules.md#entities FAQ item: open flag, title, description): native `<details>` elements, the first one
 * open, so it works without JavaScript and with the keyboard. `jsonLd`: also the FAQPage JSON-LD for search engines —
 * on `/faq` only, the questions' own page; the home page's copy would repeat the whole text a third time in its HTML.
 * `items`: which questions (numbers of `q{n}Title`), all by default.
 */
export async function FaqList({
  headingLevel = 'h2',
  jsonLd = false,
  items: which = ITEMS,
}: {
  headingLevel?: 'h2' | 'h3';
  jsonLd?: boolean;
  items?: readonly (typeof ITEMS)[number][];
}) {
  const t = await getTranslations('Faq');
  const items = which.map((i) => ({ title: t(`q${i}Title`), description: t(`q${i}Description`) }));
  const data = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((q) => ({
      '@type': 'Question',
      name: q.title,
      acceptedAnswer: { '@type': 'Answer', text: q.description },
    })),
  };
  return (
    <FaqItems headingLevel={headingLevel} items={items}>
      {jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data) }} />}
    </FaqItems>
  );
}

/**
 * The accordion itself, of translated `items` (`title`, `description`): a plain component, also rendered by the home
 * page's FAQ section (home-sections.tsx). `children` follow the items (the JSON-LD of FaqList).
 */
export function FaqItems({
  items,
  headingLevel,
  children,
}: {
  items: { title: string; description: string }[];
  headingLevel: 'h2' | 'h3';
  children?: ReactNode;
}) {
  const Heading = headingLevel;
  return (
    <div className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
      {items.map((q, i) => (
        <details key={i} open={i === 0} className="group p-4" data-testid="faq-item">
          <summary className="faq-summary">
            <Heading className="text-base">{q.title}</Heading>
            <span aria-hidden className="faq-plus">
              +
            </span>
          </summary>
          <p className="prose-answer">{q.description}</p>
        </details>
      ))}
      {children}
    </div>
  );
}
