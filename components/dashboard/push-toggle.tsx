'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useApi } from '../ui/use-api';

/**
 * Where this browser stands with the buyer's alerts:
 * - `unsupported`: no Push API here (alerts come by e-mail);
 * - `install`: iPhone or iPad Safari, where Web Push works only for a site added to the Home Screen (iOS 16.4+);
 * - `blocked`: the user refused notifications in the browser; only its settings can undo that;
 * - `off`, `on`: whether this browser's subscription is one of the account's devices;
 * - `working`: a tap is being answered; `failed`: the browser or its push service refused to subscribe.
 */
type PushState = 'unknown' | 'unsupported' | 'install' | 'blocked' | 'off' | 'on' | 'working' | 'failed';

/** base64url (the VAPID key as the API gives it) to the bytes `PushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** iPhone or iPad Safari outside a Home Screen app (iPadOS reports itself as a Mac with a touch screen). */
function iosOutsideApp(): boolean {
  const ios =
    /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return ios && !standalone && !window.matchMedia('(display-mode: standalone)').matches;
}

/** Whether this browser has the Push API (and with it, Notifications and service workers). */
function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

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
  const api = useApi();
  const [state, setState] = useState<PushState>('unknown');

  useEffect(() => {
    let cancelled = false;
    const settle = (next: PushState) => !cancelled && setState(next);
    (async () => {
      if (!pushSupported()) return settle(iosOutsideApp() ? 'install' : 'unsupported');
      if (Notification.permission === 'denied') return settle('blocked');
      const registration = await navigator.serviceWorker.getRegistration('/');
      const subscription = await registration?.pushManager.getSubscription();
      if (!subscription || Notification.permission !== 'granted') return settle('off');
      const known = await api.call('GET /push/subscriptions', { query: { endpoint: subscription.endpoint } });
      settle(known.subscribed ? 'on' : 'off');
    })().catch(() => settle('off'));
    return () => {
      cancelled = true;
    };
  }, [api]);

  async function turnOn() {
    setState('working');
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return setState(permission === 'denied' ? 'blocked' : 'off');
      const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      const { publicKey } = await api.call('GET /push/key');
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      const { endpoint, keys } = subscription.toJSON();
      await api.call('POST /push/subscriptions', {
        body: { endpoint: endpoint ?? '', p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
      });
      setState('on');
    } catch {
      setState('failed');
    }
  }

  async function turnOff() {
    setState('working');
    try {
      const registration = await navigator.serviceWorker.getRegistration('/');
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        await api.call('DELETE /push/subscriptions', { query: { endpoint: subscription.endpoint } });
        await subscription.unsubscribe();
      }
      setState('off');
    } catch {
      setState('on');
    }
  }

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
