'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import type { ApiClientError } from '@/lib/api/client';
import { formatDateTime } from '@/lib/intl-format';
import { localePath } from '@/i18n/routing';
import { type AppLocale } from '@/lib/routing/rules';
import { readUserInfo } from '@/lib/user-info';
import { DangerButton } from '../ui/form-alert';
import { useApi } from '../ui/use-api';
import { Link } from '@/components/ui/link';

type State = 'loading' | 'signedOut' | 'nothing' | 'ready' | { done: string } | { error: string };

/**
 * `/cancel-subscription` (docs/rules.md#routes, reached from My subscriptions → Billing): for a signed-in subscriber, what
 * cancelling does and one button (`PUT /admin/user/cancelSubscribe`, effective at the next billing date). Signed out:
 * the way to sign in, or `/cancel` to cancel by e-mail without signing in.
 */
export function CancelSignedIn() {
  const t = useTranslations('Cancel');
  const locale = useLocale() as AppLocale;
  const api = useApi();
  const [state, setState] = useState<State>('loading');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Signed out (no userInfo cookie): nothing to ask the server.
    if (!readUserInfo()) {
      queueMicrotask(() => setState('signedOut'));
      return;
    }
    api.call('GET /admin/order/status').then(
      (b) => setState(b.subscriptions.some((s) => s.status !== 'canceled' && !s.cancelAt) ? 'ready' : 'nothing'),
      (e: ApiClientError) => setState(e.status === 401 ? 'signedOut' : { error: e.message }),
    );
  }, [api]);

  const cancel = async () => {
    setBusy(true);
    try {
      const { cancelAt } = await api.call('PUT /admin/user/cancelSubscribe');
      setState(cancelAt[0] ? { done: formatDateTime(cancelAt[0], locale) } : 'nothing');
    } catch (e) {
      setState({ error: (e as Error).message });
    }
    setBusy(false);
  };

  return (
    <section className="mx-auto max-w-lg space-y-4 rounded-2xl bg-white p-6 shadow ring-1 ring-slate-200">
      <h1 className="text-2xl font-bold">{t('title')}</h1>
      <p className="text-slate-700">{t('lead')}</p>
      {state === 'loading' && <p aria-busy="true">…</p>}
      {state === 'nothing' && <p role="status">{t('nothing')}</p>}
      {state === 'signedOut' && (
        <p className="space-x-4">
          <Link href={localePath(locale, '/login/?redirect=billing')} className="text-brand underline">
            {t('signIn')}
          </Link>
          <Link href={localePath(locale, '/cancel/')} className="text-brand underline">
            {t('emailLead')}
          </Link>
        </p>
      )}
      {state === 'ready' && <DangerButton busy={busy} onClick={cancel} label={t('button')} busyLabel={t('working')} />}
      {typeof state === 'object' && 'done' in state && <p role="status">{t('done', { date: state.done })}</p>}
      {typeof state === 'object' && 'error' in state && <p role="alert">{state.error}</p>}
    </section>
  );
}
