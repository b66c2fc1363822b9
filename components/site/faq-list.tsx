import { getTranslations } from 'next-intl/server';

/** FAQ items q1…q8 of messages `Faq`. */
const ITEMS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/**
 * The FAQ accordion (SPEC §3 FAQ item: open flag, title, description): native `<details>` elements, the first one
 * open, so it works without JavaScript and with the keyboard; plus the FAQPage JSON-LD for search engines.
 */
export async function FaqList({ headingLevel = 'h2' }: { headingLevel?: 'h2' | 'h3' }) {
  const t = await getTranslations('Faq');
  const items = ITEMS.map((i) => ({ title: t(`q${i}Title`), description: t(`q${i}Description`) }));
  const Heading = headingLevel;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((q) => ({
      '@type': 'Question',
      name: q.title,
      acceptedAnswer: { '@type': 'Answer', text: q.description },
    })),
  };
  return (
    <div className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
      {items.map((q, i) => (
        <details key={i} open={i === 0} className="group p-4" data-testid="faq-item">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900">
            <Heading className="text-base">{q.title}</Heading>
            <span aria-hidden className="text-brand transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-3 leading-relaxed text-slate-700">{q.description}</p>
        </details>
      ))}
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd) }} />
    </div>
  );
}
