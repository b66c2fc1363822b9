'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useApi } from '../ui/use-api';

/**
 * What the buyer can do when a consent SMS was refused or not delivered: get a new consent link to
 * send through any messenger (`POST /spyContent/phoneLocation/{id}/link`, shown once, the old link stops working), or
 * send the SMS again (`send=true`, under the usual daily limits; their refusal is shown as the server words it).
 */
export function SmsFailedActions({ requestId }: { requestId: string }) {
  const t = useTranslations('Dashboard');
  const api = useApi();
  const [link, setLink] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const renew = async (send: boolean) => {
    setBusy(true);
    setNotice(null);
    try {
      const result = await api.call('POST /spyContent/phoneLocation/{id}/link', {
        params: { id: requestId },
        body: { send },
      });
      setLink(result.link);
      if (result.smsQueued) setNotice(t('sent'));
    } catch (error) {
      setNotice((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const button = 'rounded-lg border border-slate-400 px-3 py-2 text-sm font-semibold disabled:opacity-60';
  return (
    <div className="w-full space-y-2 rounded-lg bg-red-50 p-3 text-sm text-red-950">
      <p>{t('smsFailedHelp')}</p>
      {link ? (
        <div className="flex flex-wrap items-center gap-2">
          <input readOnly value={link} aria-label={t('copyLink')} className="min-w-0 flex-1 rounded border px-2 py-1" />
          <button
            type="button"
            className={button}
            onClick={() => navigator.clipboard?.writeText(link).then(() => setCopied(true))}
          >
            {copied ? t('copied') : t('copyLink')}
          </button>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" disabled={busy} className={button} onClick={() => renew(false)}>
            {t('newLink')}
          </button>
          <button type="button" disabled={busy} className={button} onClick={() => renew(true)}>
            {t('sendAgain')}
          </button>
        </div>
      )}
      {notice && <p role="status">{notice}</p>}
    </div>
  );
}
