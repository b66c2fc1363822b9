'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { onlineStatus } from '@/lib/tracking/online';
import { whenIdleAfterLoad } from '@/lib/when-idle';

/**
 * The page's tracking island, in the layout: starts lib/tracking/page once the page has loaded and the
 * browser is idle (so it adds nothing to the load's main-thread work), and shows a notice while the browser is offline (docs/rules.md#states online/offline status), since
 * forms cannot reach the server then. A page reached by client-side navigation logs its own view (trackPageView).
 * `track: false` (the owner's consent page) keeps only the offline notice: no page view, click or ad event, no event
 * service and no help chat.
 */
export function Tracker({ offline, track = true }: { offline: string; track?: boolean }) {
  useEffect(() => {
    if (!track) return;
    return whenIdleAfterLoad(
      () =>
        void import('@/lib/tracking/page')
          .then((m) => m.startPageTracking())
          .catch((error: unknown) => console.error('[tracking]', error)),
    );
  }, [track]);
  const pathname = usePathname();
  const shown = useRef(pathname);
  useEffect(() => {
    if (!track || pathname === shown.current) return;
    shown.current = pathname;
    void import('@/lib/tracking/page')
      .then((m) => m.trackPageView())
      .catch((error: unknown) => console.error('[tracking]', error));
  }, [track, pathname]);
  const online = useSyncExternalStore(onlineStatus.subscribe, onlineStatus.isOnline, () => true);
  if (online) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-0 top-0 z-40 bg-amber-100 px-4 py-2 text-center text-sm text-amber-900 shadow"
      data-testid="offline-notice"
    >
      {offline}
    </div>
  );
}
