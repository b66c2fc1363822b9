'use client';
import { useEffect } from 'react';

/** How often pages ask for fresh location data (ms): 3 s, the buyer's map refresh of docs/rules.md#consent. */
export const POLL_MS = 3000;

/**
 * Runs `step` now and again `intervalMs` after each run finishes, until it resolves to false or the component
 * unmounts (or `step` changes: memoize it with useCallback). `step` gets `active()`, false once the poll was
 * cancelled, so it can drop a late answer instead of setting state.
 */
export function usePolling(step: (active: () => boolean) => Promise<boolean>, intervalMs = POLL_MS): void {
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    const active = () => !cancelled;
    const run = async () => {
      if ((await step(active)) && !cancelled) timer = setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [step, intervalMs]);
}
