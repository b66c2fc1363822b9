'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { PhoneInfo } from '@/lib/contracts/lookups';
import { phoneCountryFor } from '@/lib/phone-country';
import type { AppLocale } from '@/lib/routing/rules';
import { track } from '@/lib/tracking/track';
import { readUserInfo } from '@/lib/user-info';
import { usePublicApi } from '../ui/use-public-api';
import type { LocateCheck } from './use-lazy-locate-form';

/**
 * How long a check waits for the visitor's IP country when the first touch of the box was its submit (an autofilled
 * form): past this, a national number is read against the locale's country, as with no IP country at all.
 */
const IP_COUNTRY_WAIT_MS = 1500;

/** Resolves after `ms` milliseconds. */
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The visitor's IP country as useIpCountry returns it. */
export type IpCountry = {
  /** ISO 3166-1 alpha-2, null until it is known or when it cannot be. */
  ipCountry: string | null;
  /** The one call's answer: the country, or null (none known, or the call failed). */
  askIpCountry: () => Promise<string | null>;
};

/**
 * The visitor's IP country from `GET /other/ipInfo`, asked on the first touch of the locate box (`wanted`) with the
 * form: a visitor who only reads makes no call, and the page does no work after it has loaded; calls go by `fetch`,
 * without the axios client (bench/lighthouse-report.md). One call per page view; a check made before it answers
 * waits for it (IP_COUNTRY_WAIT_MS at most).
 */
export function useIpCountry(wanted: boolean): IpCountry {
  const get = usePublicApi();
  const [ipCountry, setIpCountry] = useState<string | null>(null);
  const ipAsked = useRef<Promise<string | null> | null>(null);
  const askIpCountry = () =>
    (ipAsked.current ??= get('GET /other/ipInfo').then(
      (info) => info.countryCode ?? null,
      () => null,
    ));
  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    void askIpCountry().then((country) => {
      if (!cancelled && country) setIpCountry(country);
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at the first touch
  }, [wanted]);
  return { ipCountry, askIpCountry };
}

/**
 * The locate box's check of a number: the numbering-plan facts from `GET /other/location/info/{phone}` (a national
 * number read against the IP country, waited for IP_COUNTRY_WAIT_MS at most, then the locale's) and, at the same
 * time, `GET /portal/user/checkEmail/{email}`, unless this browser is signed in as that address. Returns `check` (a
 * LocateCheck: an e-mail with an account or a server error is set on its field), `facts` (null until a number is
 * identified) with `setFacts` (null: back to editing), and `registeredFor`, the E.164 number checked when the e-mail
 * turned out to have an account (the sign-in link carries it).
 */
export function useNumberCheck({ ipCountry, askIpCountry }: IpCountry) {
  const tApi = useTranslations('Api');
  const locale = useLocale() as AppLocale;
  const get = usePublicApi();
  const [facts, setFacts] = useState<PhoneInfo | null>(null);
  const [registeredFor, setRegisteredFor] = useState<string | null>(null);
  const check: LocateCheck = async ({ phone, email }, { setError }) => {
    track('locate_submitted', 'Lead');
    setRegisteredFor(null);
    try {
      const fromIp = ipCountry ?? (await Promise.race([askIpCountry(), wait(IP_COUNTRY_WAIT_MS).then(() => null)]));
      const country = await phoneCountryFor(phone, locale, fromIp);
      // Signed in as this address: the order is attached to the account, nothing to refuse.
      const own = readUserInfo()?.email?.toLowerCase() === email.trim().toLowerCase();
      const [info, account] = await Promise.all([
        get('GET /other/location/info/{phone}', { params: { phone }, query: country ? { country } : {} }),
        own
          ? null
          : get('GET /portal/user/checkEmail/{email}', { params: { email: email.trim() } })
              // A refused check (rate limit, network) is not a verdict: the order itself checks again.
              .catch(() => null),
      ]);
      if (account?.registered) {
        setRegisteredFor(info.e164);
        setError('email', { message: tApi('emailRegistered') }, { shouldFocus: true });
        return;
      }
      track('number_identified');
      setFacts(info);
    } catch (error) {
      setError('phone', { message: (error as Error).message });
    }
  };
  return { facts, setFacts, registeredFor, check };
}
