'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { PayStep } from './pay-step';
import { PhoneFacts } from './phone-facts';

/**
 * What the locate box shows once the number is checked (docs/rules.md#routes payment flow): the numbering-plan facts, 'Number
 * identified' with the prompt to create an account, and the pay step. A separate module, loaded on first use, so it
 * is not part of the landing pages' first load. On a phone they follow one another under the form; from `lg` up the
 * box is a two-column grid (components/locate/locate-box.tsx): 'Number identified' and the facts under the form on
 * the left, the pay step on the right, scrolled to the top of the screen (under the sticky header) when it appears so
 * that Pay is on it rather than far below.
 */
export default function Identified({
  facts,
  email,
  requesterName,
}: {
  facts: PhoneInfo;
  email: string;
  /** Who asks, shown to the owner. */
  requesterName: string;
}) {
  const t = useTranslations('LocateBox');
  const payColumn = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Beside the facts on a wide screen (the lg breakpoint, tailwind's 1024 px): bring the pay step to the screen's top.
    if (matchMedia('(min-width: 1024px)').matches) payColumn.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <>
      <div className="space-y-4 lg:col-start-1 lg:row-start-3 lg:mt-6">
        <div>
          <h3 className="text-lg font-semibold text-green-800">{t('identifiedTitle')}</h3>
          <p className="mt-1 text-sm text-slate-700">{t('identifiedPrompt')}</p>
        </div>
        <PhoneFacts info={facts} />
      </div>
      <div
        ref={payColumn}
        className="lg:col-start-2 lg:row-span-3 lg:row-start-2 lg:mt-4 lg:scroll-mt-14"
        data-testid="pay-column"
      >
        <PayStep email={email} phone={facts.e164} requesterName={requesterName} />
      </div>
    </>
  );
}
