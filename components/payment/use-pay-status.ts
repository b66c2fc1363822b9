'use client';
import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import type { OrderView } from '@/lib/contracts/orders';
import { trackAd } from '@/lib/tracking/track';
import { useApi } from '../ui/use-api';
import { usePolling } from '../ui/use-polling';

/**
 * The ad conversion `Purchase` for a paid order, once per order in this browser tab (a reload or the poll seeing
 * `paid` again sends nothing more). The `paid` funnel event itself is written by the server at fulfilment.
 */
function purchased(code: string): void {
  const key = `purchase:${code}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
  } catch {}
  trackAd('Purchase');
}

/**
 * What the status page shows: the order with whether its own account is signed in here (`signedIn`, only for a
 * paid one), or that it is still being read, or that no such order exists.
 */
export type PayView = { order: OrderView; signedIn: boolean } | 'loading' | 'missing';

/**
 * The status of the order named by `?order=`: `GET /portal/user/checkRegister/{code}` now and every 3 s
 * (`POLL_MS`) while it is pending, never deciding the outcome itself. A paid order is checked against the session
 * (`GET /admin/userSession/current`) and sends the ad conversion once. `refresh()` asks again at once and restarts
 * the poll (Refresh and "I have completed the payment").
 */
export function usePayStatus() {
  const api = useApi();
  const code = useSearchParams().get('order') ?? '';
  const [view, setView] = useState<PayView>(code ? 'loading' : 'missing');
  const [tick, setTick] = useState(0);

  const step = useCallback(
    async (active: () => boolean) => {
      void tick; // a manual refresh restarts the poll
      if (!code) return false; // no order named: 'missing' is already shown
      try {
        const order = await api.call('GET /portal/user/checkRegister/{code}', { params: { code } });
        // Signed in here as the order's own account (a payment never signs anyone in to an account that existed).
        const signedIn =
          order.status === 'paid' &&
          (await api.call('GET /admin/userSession/current').then(
            (me) => me.email.toLowerCase() === order.email.toLowerCase(),
            () => false,
          ));
        if (order.status === 'paid') purchased(order.code);
        if (active()) setView({ order, signedIn });
        return order.status === 'pending' || order.status === 'created';
      } catch {
        if (active()) setView('missing');
        return false;
      }
    },
    [api, code, tick],
  );
  usePolling(step);

  return { view, refresh: () => setTick((n) => n + 1) };
}
