'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { ApiClientError } from '@/lib/api/errors';
import type { ApiAnswers, ApiCallArgs, ApiGetCall } from '@/lib/contracts/calls';

/**
 * A public read of the API: a GET call keyed in lib/contracts/calls.ts with its `params` and `query`, resolving to the
 * contract's answer.
 */
export type PublicGet = <K extends ApiGetCall>(call: K, ...args: ApiCallArgs<K>) => Promise<ApiAnswers[K]>;

/**
 * The typed `GET` calls (lib/contracts/calls.ts) in the page's language for the islands of the landing pages and free tools (lib/api/browser-fetch.ts): made
 * with `fetch`, so a visitor who only reads, or makes a lookup, never loads or evaluates the axios client
 * (bench/lighthouse-report.md). The transport and the tracking fields (≈3 KB gzip with the stored state and
 * js-cookie) are a chunk of their own, fetched with the first call, so they stay out of the home page's first load.
 * Rejects with `ApiClientError`: the server's localized message, or the catalogue's `Api.network` when no answer
 * arrives or the chunk itself cannot be loaded (status 0).
 */
export function usePublicApi(): PublicGet {
  const locale = useLocale();
  const network = useTranslations('Api')('network');
  return useCallback<PublicGet>(
    (call, ...[options]) =>
      import('@/lib/api/browser-fetch').then(
        (m) => m.browserCall(locale, network, call, options),
        () => Promise.reject(new ApiClientError(network, 0, 0)),
      ),
    [locale, network],
  );
}
