'use client';
import { useEffect, useState } from 'react';

/** Pending indicators wait this long (docs/rules.md#limits "fetch minimum delay 200 ms"), so quick answers cause no flicker. */
export const PENDING_DELAY_MS = 200;

/** `flag`, but turning true only after it has stayed true for `delayMs`; false at once. */
export function useDelayed(flag: boolean, delayMs = PENDING_DELAY_MS): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [flag, delayMs]);
  return flag && shown;
}
