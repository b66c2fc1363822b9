'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { phoneCountryFor } from '@/lib/phone-country';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { PhoneFacts } from '../locate/phone-facts';
import { usePublicApi } from '../ui/use-public-api';
import { LookupForm } from './lookup-form';
import { Link } from '@/components/ui/link';

/**
 * The free reverse phone lookup of `/phone-finder` (docs/rules.md#the-product): any number's numbering-plan facts from
 * `GET /other/location/info/{phone}` (a national number against the visitor's country from `GET /other/ipInfo`, asked
 * with the first lookup, then
 * the locale's, the numbering plan choosing: lib/phone-country.ts; with neither, the error says to add the code), with
 * the plain note that this does not locate the phone, and a way to ask the owner for the location.
 */
export function PhoneLookup() {
  const t = useTranslations('Landing.phoneFinder');
  const locale = useLocale() as AppLocale;
  const get = usePublicApi();
  const [facts, setFacts] = useState<PhoneInfo | null>(null);
  // The visitor's IP country, asked once, with the first lookup: the page itself makes no call and loads no client.
  const ipCountry = useRef<Promise<string | null> | null>(null);

  const lookup = async (phone: string) => {
    try {
      ipCountry.current ??= get('GET /other/ipInfo').then(
        (info) => info.countryCode,
        () => null,
      );
      const country = await phoneCountryFor(phone, locale, await ipCountry.current);
      setFacts(await get('GET /other/location/info/{phone}', { params: { phone }, query: country ? { country } : {} }));
      return null;
    } catch (e) {
      setFacts(null);
      return (e as Error).message;
    }
  };

  return (
    <div className="space-y-6">
      <LookupForm
        id="lookup-phone"
        texts="Landing.phoneFinder"
        onLookup={lookup}
        input={{ type: 'tel', inputMode: 'tel', autoComplete: 'tel', placeholder: '+1 415 555 2671' }}
      />
      {facts && (
        <div className="space-y-4" data-testid="lookup-result">
          <PhoneFacts info={facts} />
          <Link href={localePath(locale, '/#top')} className="inline-block font-semibold text-brand underline">
            {t('locateCta')}
          </Link>
        </div>
      )}
    </div>
  );
}
