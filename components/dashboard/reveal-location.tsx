'use client';
import { formatPhone } from '@/lib/phone-format';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useState } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import type { RequestRow } from '@/lib/contracts/locations';
import { localePath } from '@/i18n/routing';
import { readUserInfo } from '@/lib/user-info';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';
import { SIGNED_OUT, SignInPrompt } from '@/components/ui/sign-in-prompt';
import { Link } from '@/components/ui/link';

const STEPS = [
  { key: 'stepQueued', reachedBy: ['queued', 'sms_sent', 'opened', 'sharing', 'paused', 'stopped'] },
  { key: 'stepSent', reachedBy: ['sms_sent', 'opened', 'sharing', 'paused', 'stopped'] },
  { key: 'stepOpened', reachedBy: ['opened', 'sharing', 'paused', 'stopped'] },
  { key: 'stepSharing', reachedBy: ['sharing', 'paused', 'stopped'] },
] as const;

/**
 * `/reveal-location` (docs/rules.md#routes), the page after purchase: the newest request's real progress (polled every 3 s from
 * `GET /spyContent`) — SMS queued, handed to the carrier, link opened, sharing — then the way to its map. Every step
 * shown is a state the server recorded; nothing is simulated.
 */
export function RevealLocation() {
  const t = useTranslations('Reveal');
  const locale = useLocale();
  const api = useApi();
  const [row, setRow] = useState<RequestRow | null | 'none'>(null);
  const [error, setError] = useState<string | null>(null);

  const step = useCallback(
    async (active: () => boolean) => {
      if (!readUserInfo()) {
        // Signed out: the request list needs a session; say so without a failing call.
        if (active()) setError(SIGNED_OUT);
        return false;
      }
      try {
        const page = await api.call('GET /spyContent', { query: { pageNum: 1, pageSize: 1 } });
        if (!active()) return false;
        const newest = page.list[0];
        setRow(newest ?? 'none');
        // Done once the request ended or the first position arrived.
        return !(
          newest?.status === 'declined' ||
          newest?.status === 'expired' ||
          ((newest?.status === 'sharing' || newest?.status === 'paused') && newest.positions > 0)
        );
      } catch (e) {
        if (active()) setError((e as ApiClientError).message);
        return false;
      }
    },
    [api],
  );
  usePolling(step);

  if (error || row === 'none')
    return (
      <section className="mx-auto max-w-lg space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
        <h1 className="text-2xl font-bold">{t('heading')}</h1>
        {error === SIGNED_OUT ? <SignInPrompt /> : error ? <p role="alert">{error}</p> : <p>{t('none')}</p>}
      </section>
    );
  if (row === null) return <p aria-busy="true">…</p>;
  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="font-semibold">{formatPhone(row.phone)}</p>
      <p className="text-slate-700">{t('lead')}</p>
      <ol className="space-y-2" aria-live="polite">
        {STEPS.map((step) => {
          const done = (step.reachedBy as readonly string[]).includes(row.status);
          return (
            <li
              key={step.key}
              className={`flex items-center gap-2 ${done ? 'text-green-800' : 'text-slate-400'}`}
              data-done={done}
            >
              <span aria-hidden>{done ? '●' : '○'}</span>
              {t(step.key)}
            </li>
          );
        })}
      </ol>
      {row.status === 'declined' && <p role="status">{t('declined')}</p>}
      {row.status === 'expired' && <p role="status">{t('expired')}</p>}
      <Link
        href={localePath(locale, `/map/?id=${row.id}`)}
        className="inline-block rounded-lg bg-brand px-6 py-3 font-semibold text-white"
      >
        {t('openMap')}
      </Link>
    </section>
  );
}
