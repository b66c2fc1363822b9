'use client';
import { useSyncExternalStore } from 'react';
import { formatDateTime } from '@/lib/intl-format';

const noSubscribe = () => () => {};

/**
 * An instant (`iso`, ISO 8601) as the reader's locale writes it, zone named (lib/intl-format.ts `formatDateTime`).
 * The server renders it in UTC, so the page reads right without JavaScript; in the browser, once hydrated, it is
 * written in the reader's own time zone.
 */
export function LocalTime({ iso, locale }: { iso: string; locale: string }) {
  const zone = useSyncExternalStore(
    noSubscribe,
    () => undefined,
    () => 'UTC',
  );
  return <time dateTime={iso}>{formatDateTime(iso, locale, zone)}</time>;
}
