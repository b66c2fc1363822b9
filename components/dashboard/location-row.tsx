'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import type { RequestRow, RequestStatus } from '@/lib/contracts/locations';
import { formatAgo, formatDateTime, formatUntil } from '@/lib/intl-format';
import { waitingState } from '@/lib/request-state';
import { liveness } from '@/lib/live-state';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { Link } from '@/components/ui/link';
import { SmsFailedActions } from './sms-failed-actions';

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
 * One request in the subscriber's list: the number and when it was asked; its badge, which for a request waiting for
 * its owner reads as a state with how long ago its SMS went and until when its link is valid (at `now`, ms since the
 * epoch); "updated" when the row has news and the visit has unseen notifications (`news`); for a share, how live it is
 * and the age of its last position (or that the owner deleted it); the link to its map; and, when the SMS failed, what
 * can be done about it (./sms-failed-actions.tsx).
 */
export function LocationRow({ row: r, now, news }: { row: RequestRow; now: number; news: boolean }) {
  const t = useTranslations('Dashboard');
  const tMap = useTranslations('Map');
  const locale = useLocale() as AppLocale;
  const waiting = waitingState(r, now);
  /** The first words of a waiting request's state: what happened to its SMS or link, and how long ago. */
  const lead = (w: NonNullable<ReturnType<typeof waitingState>>) =>
    w.kind === 'sending'
      ? t('stateSending')
      : w.kind === 'opened'
        ? t('status.opened')
        : t(w.kind === 'sent' ? 'stateSent' : 'stateDelivered', { ago: formatAgo(w.since, locale, now) });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="location-row">
      <div>
        <p className="font-semibold">{formatPhone(r.phone)}</p>
        <p className="text-sm text-slate-600">{formatDateTime(r.createdAt, locale)}</p>
      </div>
      <div className="flex flex-col items-start gap-1">
        <span className="flex items-center gap-2">
          <span className={`rounded-full px-3 py-1 text-sm ${BADGE[badgeOf(r)]}`} data-testid="location-status">
            {waiting ? lead(waiting) : t(`status.${badgeOf(r)}`)}
          </span>
          {r.updated && news && (
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
}
