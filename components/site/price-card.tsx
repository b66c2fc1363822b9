'use client';
import { useEffect, useState } from 'react';
import { browserCall } from '@/lib/api/browser-fetch';
import type { PricePlan } from '@/lib/contracts/orders';
import { Link } from '@/components/ui/link';

/** The decimal separator of `lang` ('.' in en, ',' in es and id). */
function decimalSeparator(lang: string): string {
  return new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

type Labels = {
  label: string;
  plan: string;
  period: string;
  then: string;
  loading: string;
  benefits: string[];
  cta: string;
};

/**
 * The price card (docs/rules.md#entities price card: label, title, trial price, period 24H, monthly price, benefits). Values come from
 * `GET /portal/priceSetup` (`browserCall`, the light fetch transport: no axios in the home page's first load); texts arrive translated, with
 * `{monthly}` and `{count}` filled here. Also emits the Product/Offer JSON-LD once the price is known.
 */
export default function PriceCard({ labels, lang, ctaHref }: { labels: Labels; lang: string; ctaHref: string }) {
  const [plan, setPlan] = useState<PricePlan | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    browserCall(lang, '', 'GET /portal/priceSetup').then(setPlan, () => setFailed(true));
  }, [lang]);
  const fill = (text: string) =>
    text.replace('{monthly}', plan?.monthlyText ?? '…').replace('{count}', String(plan?.geolocations ?? 30));
  const jsonLd = plan && {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: labels.label,
    description: fill(labels.then),
    offers: {
      '@type': 'Offer',
      price: plan.trialPrice,
      priceCurrency: plan.currency,
      availability: 'https://schema.org/InStock',
    },
  };
  return (
    <div className="mx-auto max-w-md rounded-3xl bg-white p-8 shadow-lg ring-1 ring-slate-200" data-testid="price-card">
      <p className="text-sm font-semibold tracking-wide text-brand uppercase">{labels.label}</p>
      <p className="mt-1 text-lg font-semibold text-slate-900">{labels.plan}</p>
      <p className="mt-4 flex items-baseline gap-1 text-slate-900" aria-live="polite">
        {plan ? (
          <>
            <span className="text-2xl font-semibold">{plan.sign}</span>
            <span className="text-5xl font-bold" data-testid="price-integer">
              {plan.integer}
            </span>
            {plan.decimal && (
              <span className="text-2xl font-semibold">
                {decimalSeparator(lang)}
                {plan.decimal}
              </span>
            )}
            <span className="ml-2 text-base text-slate-600">/ {labels.period}</span>
          </>
        ) : (
          <span className="text-base text-slate-600">{failed ? '—' : labels.loading}</span>
        )}
      </p>
      <p className="mt-2 text-base text-slate-700">{fill(labels.then)}</p>
      <ul className="mt-6 space-y-2 text-slate-700">
        {labels.benefits.map((b) => (
          <li key={b} className="flex gap-2">
            <span aria-hidden className="text-brand">
              ✓
            </span>
            {fill(b)}
          </li>
        ))}
      </ul>
      <Link
        href={ctaHref}
        data-btn-id="price_cta"
        className="mt-8 block rounded-lg bg-brand px-5 py-3 text-center font-semibold text-white hover:bg-brand-dark"
      >
        {labels.cta}
      </Link>
      {jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd) }} />}
    </div>
  );
}
