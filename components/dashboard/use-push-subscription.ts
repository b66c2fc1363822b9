'use client';

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
 * This browser's Web Push subscription for the buyer's alerts. On mount it reads where the browser stands (no Push
 * API, iOS outside a Home Screen app, notifications blocked, or whether its subscription is one of the account's
 * devices: `GET /push/subscriptions`) without asking anything. Returns `state` (a `PushState`, `unknown` until read),
 * `turnOn` (asks the permission, registers public/sw.js, subscribes with the API's VAPID key and hands the
 * subscription to `POST /push/subscriptions`) and `turnOff` (removes the device, then unsubscribes the browser).
 */
export function usePushSubscription() {
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

  return { state, turnOn, turnOff };
}
