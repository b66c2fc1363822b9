'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import type { DataLeakReport as Report } from '@/lib/contracts/data-leaks';
import { formatDateTime, formatDay } from '@/lib/intl-format';
import { type AppLocale } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { useApi } from '../ui/use-api';

/** HIBP's name of the data class that means a password was exposed. */
const PASSWORDS = 'Passwords';

/**
 * `/dashboard/data-leaks`: the data-leak check of the subscriber's own account e-mail
 * (`GET /account/dataLeaks`). Shows "not configured on this server" when it is not; otherwise each breach's name,
 * date and the kinds of data exposed, with what to do (change that password where passwords leaked, turn on
 * two-factor), or that the e-mail is in no known breach; when it was checked; and Have I Been Pwned's attribution.
 * A service failure shows the server's "try later" message, never "no breaches". Needs the `DataLeaks`, `Dashboard`
 * and `Auth` messages.
 */
export function DataLeaksView() {
  const t = useTranslations('DataLeaks');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<{ message: string; signedOut: boolean } | null>(null);

  useEffect(() => {
    api
      .call('GET /account/dataLeaks')
      .then(setReport, (e: ApiClientError) => setError({ message: e.message, signedOut: e.code === SESSION_INVALID }));
  }, [api]);

  return (
    <section className="space-y-4" aria-busy={!report && !error}>
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="text-slate-700">{t('lead')}</p>
      {error &&
        (error.signedOut ? (
          <SignInPrompt />
        ) : (
          <p role="alert" className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="leaks-error">
            {error.message}
          </p>
        ))}
      {!report && !error && <p className="text-slate-600">{t('checking')}</p>}
      {report && !report.configured && (
        <p role="status" className="rounded-lg bg-slate-100 p-3 text-slate-800" data-testid="leaks-not-configured">
          {t('notConfigured')}
        </p>
      )}
      {report?.configured && (
        <>
          <p role="status" className="font-semibold" data-testid="leaks-summary">
            {report.breaches.length
              ? t('found', { count: report.breaches.length, email: report.email })
              : t('none', { email: report.email })}
          </p>
          <ul className="space-y-3">
            {report.breaches.map((b) => (
              <li key={b.name} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="breach">
                <h2 className="text-lg font-semibold">{b.title}</h2>
                <p className="text-sm text-slate-600">
                  {[b.domain, t('breachDate', { date: formatDay(`${b.breachDate}T00:00:00Z`, locale, 'UTC') })]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                <p className="mt-2 text-sm">
                  <span className="font-medium">{t('exposed')}</span> {b.dataClasses.join(', ')}
                </p>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
                  {b.dataClasses.includes(PASSWORDS) && <li>{t('advicePassword', { site: b.title })}</li>}
                  <li>{t('adviceTwoFactor')}</li>
                </ul>
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-600">{t('checkedAt', { time: formatDateTime(report.checkedAt, locale) })}</p>
        </>
      )}
      <p className="text-xs text-slate-600">
        {t('attribution')}{' '}
        <Link href="https://haveibeenpwned.com/" className="underline" target="_blank">
          Have I Been Pwned
        </Link>
      </p>
    </section>
  );
}
