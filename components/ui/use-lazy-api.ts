'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { ApiClient } from '@/lib/api/client';

/**
 * The API client in the page's language, loaded when the first call is made: for the islands of the landing pages
 * and free tools, whose first load should not evaluate axios (its own chunk, fetched and run in a task of its own when
 * a call needs it; bench/lighthouse-report.md). Returns a function that resolves to the client (the same one
 * `useApi` gives, lib/api/browser.ts).
 */
export function useLazyApi(): () => Promise<ApiClient> {
  const locale = useLocale();
  const network = useTranslations('Api')('network');
  return useCallback(() => import('@/lib/api/browser').then((m) => m.browserApi(locale, network)), [locale, network]);
}
