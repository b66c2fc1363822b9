'use client';
import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { UndeliveredEmail } from '@/lib/contracts/account';
import { formatDateTime } from '@/lib/intl-format';

/** The frame of each tone of notice: amber for mail that did not arrive, green for a change that succeeded. */
const TONE = {
  warning: 'rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300',
  success: 'space-y-3 rounded-2xl bg-green-50 p-6 ring-1 ring-green-200',
} as const;

/** A notice of the account page, read out when it appears (`role="status"`), in the frame of its `tone`. */
function AccountNotice({ tone, testId, children }: { tone: keyof typeof TONE; testId: string; children: ReactNode }) {
  return (
    <div role="status" data-testid={testId} className={TONE[tone]}>
      {children}
    </div>
  );
}

/**
 * The account's e-mails that have not arrived (a temporary password, a reset code), said on the account page rather
 * than left to guesswork: one line each with its subject and date, and when the next attempt is for one still queued.
 * Renders nothing when `emails` is empty. Needs the `Auth` messages.
 */
export function UndeliveredEmails({ emails }: { emails: UndeliveredEmail[] }) {
  const t = useTranslations('Auth');
  const locale = useLocale();
  const when = (iso: string) => formatDateTime(iso, locale);
  if (emails.length === 0) return null;
  return (
    <AccountNotice tone="warning" testId="undelivered-emails">
      <p className="font-semibold">{t('undeliveredTitle')}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
        {emails.map((m) => (
          <li key={m.createdAt}>
            {m.status === 'queued' && m.nextAttemptAt
              ? t('undeliveredRetry', {
                  subject: m.subject ?? '',
                  date: when(m.createdAt),
                  next: when(m.nextAttemptAt),
                })
              : t('undeliveredFailed', { subject: m.subject ?? '', date: when(m.createdAt) })}
          </li>
        ))}
      </ul>
    </AccountNotice>
  );
}

/**
 * The confirmation that replaces the password form once a change succeeded: what changed for `email` (the new
 * password is the one to use, other devices were signed out, a notice was e-mailed; `chosen`: a first password
 * replaced a temporary one) and a "change it again" button that calls `onChangeAgain`. Needs the `Auth` messages.
 */
export function PasswordChanged({
  chosen,
  email,
  onChangeAgain,
}: {
  chosen: boolean;
  email: string;
  onChangeAgain: () => void;
}) {
  const t = useTranslations('Auth');
  return (
    <AccountNotice tone="success" testId="password-changed">
      <h2 className="text-lg font-semibold text-green-900">{t('passwordChangedTitle')}</h2>
      <p className="text-slate-800">{t(chosen ? 'passwordChosenText' : 'passwordChangedText', { email })}</p>
      <button
        onClick={onChangeAgain}
        type="button"
        className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 text-sm"
      >
        {t('changeAgain')}
      </button>
    </AccountNotice>
  );
}
