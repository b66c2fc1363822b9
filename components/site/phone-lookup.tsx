'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState, type FormEvent } from 'react';
import type { IpInfo, PhoneInfo } from '@/lib/api/types';
import { prefixOf, type AppLocale } from '@/lib/routing/rules';
import { PhoneFacts } from '../locate/phone-facts';
import { TextField } from '../ui/text-field';
import { useApi } from '../ui/use-api';

/**
 * The free reverse phone lookup of `/phone-finder` (SPEC §1): any number's numbering-plan facts from
 * `GET /other/location/info/{phone}` (national numbers against the visitor's country from `GET /other/ipInfo`), with
 * the plain note that this does not locate the phone, and a way to ask the owner for the location.
 */
export function PhoneLookup() {
  const t = useTranslations('Landing.phoneFinder');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [phone, setPhone] = useState('');
  const [country, setCountry] = useState<string | null>(null);
  const [facts, setFacts] = useState<PhoneInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.get<IpInfo>('/other/ipInfo').then(
      (info) => setCountry(info.countryCode),
      () => {},
    );
  }, [api]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setFacts(
        await api.get<PhoneInfo>(`/other/location/info/${encodeURIComponent(phone)}`, country ? { country } : {}),
      );
    } catch (e) {
      setFacts(null);
      setError((e as Error).message);
    }
    setBusy(false);
  };

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
        <TextField
          id="lookup-phone"
          label={t('label')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="+1 415 555 2671"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          error={error ?? undefined}
          className="flex-1"
        />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand px-5 py-2.5 font-semibold text-white hover:bg-brand-dark disabled:opacity-60"
        >
          {busy ? t('checking') : t('submit')}
        </button>
      </form>
      {facts && (
        <div className="space-y-4" data-testid="lookup-result">
          <PhoneFacts info={facts} />
          <a href={`${prefixOf(locale)}/#top`} className="inline-block font-semibold text-brand underline">
            {t('locateCta')}
          </a>
        </div>
      )}
    </div>
  );
}
