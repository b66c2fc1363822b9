'use client';

import { useTranslations } from 'next-intl';
import { usePushSubscription } from './use-push-subscription';

/**
 * "Notify me on this device": the buyer's choice of Web Push for their alerts (the owner shared, declined or stopped,
 * or no update for 5 minutes; server/services/locate/buyer-alerts.ts), e-mail being the default. Nothing is asked on
 * load: the browser's permission prompt appears only after the tap (Notifications API `requestPermission` in a user
 * gesture), then the service worker (public/sw.js) is registered and its subscription handed to `POST
 * /push/subscriptions`. "Turn off" unsubscribes the browser and removes the device. Each state says where alerts go
 * now.
 */
export function PushToggle() {
  const t = useTranslations('Dashboard.push');
  const { state, turnOn, turnOff } = usePushSubscription();

  if (state === 'unknown') return null;
  const button = 'inline-flex min-h-11 items-center rounded-lg px-4 text-sm font-semibold';
  return (
    <div className="mt-4 rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="push-toggle" data-state={state}>
      <p className="text-sm text-slate-700">{t('what')}</p>
      <p className="mt-1 text-sm font-medium text-slate-900" role="status">
        {t(`state.${state}`)}
      </p>
      {(state === 'off' || state === 'failed' || state === 'working') && (
        <button
          type="button"
          onClick={turnOn}
          disabled={state === 'working'}
          className={`${button} mt-3 bg-brand text-white disabled:opacity-60`}
        >
          {t('turnOn')}
        </button>
      )}
      {state === 'on' && (
        <button type="button" onClick={turnOff} className={`${button} mt-3 ring-1 ring-slate-300`}>
          {t('turnOff')}
        </button>
      )}
    </div>
  );
}
