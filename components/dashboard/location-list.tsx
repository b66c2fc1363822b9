'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { MUST_CHANGE_PASSWORD, SESSION_INVALID } from '@/lib/api/client';
import { useNow } from '../ui/use-now';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { BuyAgainLink } from './buy-again-link';
import { PushToggle } from './push-toggle';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';
import { PeopleMap } from './people-map';
import { LocationRow } from './location-row';
import { type RequestPageError, useRequestPage } from './use-request-page';

/**
 * The subscriber's location requests (`GET /spyContent`) with their status and a link to each map. A request waiting
 * for its owner reads as a state, not an alert: "SMS sent 2 min ago · waiting for the owner · the link is valid until
 * 14:05" (relative times by `Intl.RelativeTimeFormat`, the expiry in the reader's time zone); only news — the owner
 * answered, a position came, the request ended, the SMS failed — is counted and marked, in the brand colour. Without a
 * live subscription (refunded, ended) "New request" becomes "Buy again", to the home page's locate box. A request whose
 * owner deleted what they had shared (`erased`) says so where its last position would be. An invalid
 * session shows a sign-in notice and link, never a redirect (no loop with the home page's redirect); a session
 * opened with a temporary password links to the account page to choose a password. Above the list, the people map
 * (./people-map.tsx) shows everyone who shares on one map.
 */
export function LocationList() {
  const t = useTranslations('Dashboard');
  const locale = useLocale() as AppLocale;
  const { rows, quota, unseen, error } = useRequestPage();
  const now = useNow(1000);

  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-3 text-2xl font-bold">
          {t('title')}
          {unseen > 0 && (
            <span
              className="rounded-full bg-blue-100 px-2.5 py-0.5 text-sm font-semibold text-blue-900"
              data-testid="notifications"
            >
              {t('newCount', { count: unseen })}
            </span>
          )}
        </h1>
        {rows &&
          (quota ? (
            <Link
              href={localePath(locale, '/getLocation/')}
              className="inline-flex min-h-11 items-center rounded-lg bg-brand px-4 text-sm font-semibold text-white"
            >
              {t('newRequest')}
            </Link>
          ) : (
            <BuyAgainLink label={t('buyAgain')} phone={rows[0] ? formatPhone(rows[0].phone) : null} />
          ))}
      </div>
      {quota && (
        <p className="mt-2 text-sm text-slate-600" data-testid="quota">
          {t('quota', { used: quota.used, total: quota.total })}
        </p>
      )}
      {error && <ListError error={error} />}
      {rows && <PushToggle />}
      {rows && !quota && (
        <p className="mt-2 text-sm text-slate-600" data-testid="no-subscription">
          {t('noSubscription')}
        </p>
      )}
      {rows && rows.length === 0 && <p className="mt-4 text-slate-600">{t('empty')}</p>}
      {rows && rows.length > 0 && <PeopleMap />}
      {rows && rows.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
          {rows.map((r) => (
            <LocationRow key={r.id} row={r} now={now} news={unseen > 0} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Why the list is missing: for an invalid session the sign-in prompt (saying so when the session ended), else the
 * API's message with a link to choose a password (a session opened with a temporary one) or to the home page.
 */
function ListError({ error }: { error: RequestPageError }) {
  const t = useTranslations('Dashboard');
  const locale = useLocale() as AppLocale;
  if (error.code === SESSION_INVALID)
    return (
      <div className="mt-4">
        <SignInPrompt ended={error.ended} />
      </div>
    );
  return (
    <div role="alert" className="mt-4 space-y-2">
      <p>{error.message}</p>
      {error.code === MUST_CHANGE_PASSWORD ? (
        <Link href={localePath(locale, '/dashboard/account/')} className="text-brand underline">
          {t('choosePassword')}
        </Link>
      ) : (
        <Link href={localePath(locale, '/')} className="text-brand underline">
          {t('home')}
        </Link>
      )}
    </div>
  );
}
