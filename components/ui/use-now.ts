'use client';
import { useEffect, useState } from 'react';

/** The current time (ms since the epoch), refreshed every `intervalMs` (default 30 s), for "N min ago" texts. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
