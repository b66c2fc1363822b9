import type { RequesterFacts } from './contracts/consent';

/** A translator of the `Consent` namespace (next-intl's `useTranslations('Consent')` or `createTranslator`). */
type ConsentT = (
  key: 'factsNew' | 'factsSince' | 'factsRequests' | 'factsReported',
  values?: Record<string, string | number>,
) => string;

/**
 * The line the consent page shows beside the requester's name, from what the server knows of the account
 * (`RequesterFacts`), in `locale`: "Account created today, first request", "Customer since March 2026, 3 requests,
 * none reported". Facts only, joined with commas: the age ("created today" for an account less than 24 hours old,
 * else the month it was created, written out in the locale and read in UTC as the server counted it), the number of
 * requests (ICU plural: "first request" for the first), and, once there is more than one, how many were reported as
 * abuse ("none reported", "1 reported"). Pure; never throws for a well-formed `since` (`YYYY-MM`).
 */
export function requesterFactsText(facts: RequesterFacts, locale: string, t: ConsentT): string {
  const [year, month] = facts.since.split('-').map(Number);
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(year, month - 1, 1),
  );
  return [
    facts.newAccount ? t('factsNew') : t('factsSince', { month: monthName }),
    t('factsRequests', { count: facts.requests }),
    ...(facts.requests > 1 ? [t('factsReported', { count: facts.reported })] : []),
  ].join(', ');
}
