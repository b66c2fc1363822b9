/**
 * Online/offline status (docs/rules.md#states) for `useSyncExternalStore`: `subscribe` listens to the window's `online` and
 * `offline` events; `isOnline` reads `navigator.onLine`.
 */
export const onlineStatus = {
  subscribe(onChange: () => void): () => void {
    addEventListener('online', onChange);
    addEventListener('offline', onChange);
    return () => {
      removeEventListener('online', onChange);
      removeEventListener('offline', onChange);
    };
  },
  isOnline: (): boolean => navigator.onLine,
};
