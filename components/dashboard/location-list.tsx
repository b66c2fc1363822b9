'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { ApiClientError, MUST_CHANGE_PASSWORD, SESSION_INVALID } from '@/lib/api/client';
import type { RequestPage, RequestRow, RequestStatus } from '@/lib/contracts/locations';
import { formatAgo, formatDateTime, formatUntil } from '@/lib/intl-format';
import { waitingState } from '@/lib/request-state';
import { liveness } from '@/lib/live-state';
import { useNow } from '../ui/use-now';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { BuyAgainLink } from './buy-again-link';
import { useApi } from '../ui/use-api';
import { PushToggle } from './push-toggle';
import { SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';
import { SmsFailedActions } from './sms-failed-actions';
import { PeopleMap } from './people-map';

type Badge = RequestStatus | 'delivered' | 'smsFailed' | 'locationDenied' | 'withdrawn';

/**
 * The badge of a row: a request whose SMS the carrier confirmed shows 'delivered' until the owner opens it; one whose
 * SMS was refused or not delivered shows 'SMS not delivered'; an owner whose browser refused the
 * location shows 'opened, location not allowed' (docs/decisions/0003); a request ended with the subscription shows
 * 'withdrawn' (docs/request-states.md).
 */
function badgeOf(row: RequestRow): Badge {
  if ((row.status === 'queued' || row.status === 'sms_sent') && row.smsStatus === 'failed') return 'smsFailed';
  if (row.status === 'opened' && row.locationDenied) return 'locationDenied';
  if (row.status === 'expired' && row.withdrawn) return 'withdrawn';
  return row.status === 'sms_sent' && row.smsStatus === 'delivered' ? 'delivered' : row.status;
}

/** Badge colours per status: waiting states neutral, sharing green, ended states muted or red. */
const BADGE: Record<Badge, string> = {
  queued: 'bg-slate-100 text-slate-800',
  sms_sent: 'bg-blue-100 text-blue-900',
  delivered: 'bg-sky-100 text-sky-900',
  opened: 'bg-indigo-100 text-indigo-900',
  sharing: 'bg-green-100 text-green-900',
  paused: 'bg-lime-100 text-lime-900',
  stopped: 'bg-amber-100 text-amber-900',
  declined: 'bg-red-100 text-red-900',
  expired: 'bg-slate-200 text-slate-700',
  smsFailed: 'bg-red-100 text-red-900',
  locationDenied: 'bg-amber-100 text-amber-900',
  withdrawn: 'bg-slate-200 text-slate-700',
};

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
  const tMap = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [rows, setRows] = useState<RequestRow[] | null>(null);
  const [quota, setQuota] = useState<RequestPage['quota']>(null);
  const [unseen, setUnseen] = useState(0);
  const [error, setError] = useState<{ message: string; code: number; ended: boolean } | null>(null);
  const now = useNow(1000);

  useEffect(() => {
    api.call('GET /spyContent', { query: { pageNum: 1, pageSize: 50 } }).then(
      (page) => {
        setRows(page.list);
        setQuota(page.quota);
        setUnseen(page.notificationsTotal);
        // Shown once: what is on screen now counts as seen.
        if (page.notificationsTotal > 0) api.call('POST /spyContent/notifications/seen').catch(() => {});
      },
      (e: ApiClientError) => setError({ message: e.message, code: e.code, ended: e.detail.reason === 'session_ended' }),
    );
  }, [api]);

  /** The first words of a waiting request's state: what happened to its SMS or link, and how long ago. */
  const lead = (w: NonNullable<ReturnType<typeof waitingState>>) =>
    w.kind === 'sending'
      ? t('stateSending')
      : w.kind === 'opened'
        ? t('status.opened')
        : t(w.kind === 'sent' ? 'stateSent' : 'stateDelivered', { ago: formatAgo(w.since, locale, now) });
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
      {error &&
        (error.code === SESSION_INVALID ? (
          <div className="mt-4">
            <SignInPrompt ended={error.ended} />
          </div>
        ) : (
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
        ))}
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
          {rows.map((r) => {
            const waiting = waitingState(r, now);
            return (
              <li
                key={r.id}
                className="flex flex-wrap items-center justify-between gap-3 p-4"
                data-testid="location-row"
              >
                <div>
                  <p className="font-semibold">{formatPhone(r.phone)}</p>
                  <p className="text-sm text-slate-600">{formatDateTime(r.createdAt, locale)}</p>
                </div>
                <div className="flex flex-col items-start gap-1">
                  <span className="flex items-center gap-2">
                    <span
                      className={`rounded-full px-3 py-1 text-sm ${BADGE[badgeOf(r)]}`}
                      data-testid="location-status"
                    >
                      {waiting ? lead(waiting) : t(`status.${badgeOf(r)}`)}
                    </span>
                    {r.updated && unseen > 0 && (
                      <span className="text-xs font-semibold text-blue-800" data-testid="row-updated">
                        {t('updatedRow')}
                      </span>
                    )}
                  </span>
                  {waiting && (
                    <span className="text-sm text-slate-600" data-testid="request-state">
                      {t(waiting.kind === 'opened' ? 'waitingChoice' : 'waitingOwner')} ·{' '}
                      {t('linkValidUntil', { time: formatUntil(waiting.until, locale, now) })}
                    </span>
                  )}
                  {(r.status === 'sharing' || r.status === 'paused' || r.status === 'stopped') && (
                    <span className="text-sm text-slate-600" data-testid="last-position">
                      {(r.status === 'sharing' || r.status === 'paused') && (
                        <span data-testid="row-liveness" className="font-semibold text-slate-800">
                          {tMap(`live.${liveness({ ...r, ended: null, sharingUntil: null }, now)}`)} ·{' '}
                        </span>
                      )}
                      {r.lastPositionAt
                        ? t('lastPosition', { ago: formatAgo(r.lastPositionAt, locale, now, { seconds: true }) })
                        : r.erased
                          ? t('erased')
                          : t('noPosition')}
                    </span>
                  )}
                </div>
                <Link
                  href={localePath(locale, `/map/?id=${r.id}`)}
                  className="inline-flex min-h-11 items-center rounded-lg bg-brand px-4 text-sm font-semibold text-white"
                >
                  {t('openMap')}
                </Link>
                {badgeOf(r) === 'smsFailed' && <SmsFailedActions requestId={r.id} />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
