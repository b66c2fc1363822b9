'use client';
import { useTranslations } from 'next-intl';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { PayStep } from './pay-step';
import { PhoneFacts } from './phone-facts';

/**
 * What the locate box shows once the number is checked (docs/rules.md#routes payment flow): the numbering-plan facts, 'Number
 * identified' with the prompt to create an account, and the pay step. A separate module, loaded on first use, so it
 * is not part of the landing pages' first load.
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
  return (
    <>
      <PhoneFacts info={facts} />
      <div>
        <h3 className="text-lg font-semibold text-green-800">{t('identifiedTitle')}</h3>
        <p className="mt-1 text-sm text-slate-700">{t('identifiedPrompt')}</p>
      </div>
      <PayStep email={email} phone={facts.e164} requesterName={requesterName} />
    </>
  );
}
