'use client';
import type { CancelLink } from '@/lib/contracts/billing';
import { useLocale, useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { formatDateTime } from '@/lib/intl-format';
import type { AppLocale } from '@/lib/routing/rules';
import { DangerButton } from '../ui/form-alert';
import { useApi } from '../ui/use-api';
import { EmailLinkForm, LinkMessage, type LinkFormMessage } from './email-link-form';

/**
 * `/cancel` without signing in (the EU withdrawal function): the e-mail of the account → a single-use link by e-mail
 * (`POST /portal/cancel/request`, same answer whether or not the address subscribes) → `/cancel?token=…` → Confirm
 * (`POST /portal/cancel/confirm`), which cancels at the next billing date exactly as the signed-in path does. The link's
 * state is read first (`GET /portal/cancel/link/{token}`): a used link says so with the subscription's
 * state instead of offering the button again; an expired or unknown one offers the e-mail form for a new link.
 */
export function CancelByEmail() {
  const t = useTranslations('Cancel');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const token = useSearchParams().get('token');
  const [message, setMessage] = useState<LinkFormMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<(CancelLink & { ended: boolean }) | null>(null);

  useEffect(() => {
    if (!token) return;
    api.call('GET /portal/cancel/link/{token}', { params: { token } }).then(
      (v) => setLink({ ...v, ended: !!v.subscription && Date.parse(v.subscription.endsAt) <= Date.now() }),
      (e: Error) => setMessage({ text: e.message, role: 'alert' }),
    );
  }, [api, token]);

  /** What a used link's subscription is now: cancelled with access until a date, ended, or (re)subscribed. */
  const usedText = (sub: NonNullable<CancelLink['subscription']>) => {
    const date = formatDateTime(sub.endsAt, locale);
    if (sub.status === 'canceled' || link?.ended) return t('usedEnded', { date });
    return sub.cancelling ? t('usedEnds', { date }) : t('usedLive', { date });
  };

  const onConfirm = async () => {
    if (!token) return;
    setBusy(true);
    try {
      const { cancelAt } = await api.call('POST /portal/cancel/confirm', { body: { token } });
      setMessage(
        cancelAt[0]
          ? { text: t('done', { date: formatDateTime(cancelAt[0], locale) }), role: 'status' }
          : { text: t('nothing'), role: 'status' },
      );
    } catch (e) {
      setMessage({ text: (e as Error).message, role: 'alert' });
    }
    setBusy(false);
  };

  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{token ? t('confirmTitle') : t('title')}</h1>
      <p className="text-slate-700">{t('lead')}</p>
      {token && !link && !message && <p aria-busy="true">{t('checking')}</p>}
      {token && link?.state === 'used' && (
        <div role="status" className="space-y-1" data-testid="cancel-link-used">
          <p className="font-semibold">{t('used')}</p>
          {link.subscription && <p>{usedText(link.subscription)}</p>}
        </div>
      )}
      {token && (link?.state === 'expired' || link?.state === 'unknown') && <p role="alert">{t(link.state)}</p>}
      {token && link?.state === 'usable' ? (
        <>
          <p className="text-slate-700">{t('confirmText')}</p>
          {!message && <DangerButton busy={busy} onClick={onConfirm} label={t('button')} busyLabel={t('working')} />}
        </>
      ) : token && link?.state === 'used' ? null : (
        <EmailLinkForm namespace="Cancel" endpoint="POST /portal/cancel/request" onResult={setMessage} />
      )}
      <LinkMessage message={message} />
    </section>
  );
}
