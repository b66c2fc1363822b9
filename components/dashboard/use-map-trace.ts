'use client';
import { useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { type ApiClient, ApiClientError, SESSION_INVALID } from '@/lib/api/client';
import type { LocationTrace } from '@/lib/contracts/locations';
import { readUserInfo } from '@/lib/user-info';
import { SIGNED_OUT } from '@/components/ui/sign-in-prompt';
import { type LiveTransport, useLiveTrace } from './use-live-trace';

/**
 * The trace of the request the map page names (`?id=`), kept current by the live stream with polling of
 * `GET /gpsTrace/phoneLocation/{id}` as its fallback (./use-live-trace.ts), through `api`. Returns the trace (null
 * until the first arrives), how it arrives (`transport`), and `error`: `SIGNED_OUT` for an invalid session or a page
 * opened signed out, the 'not found' words for no id, another user's id (404) or a malformed one (422), else the
 * API's message (polling goes on after such a failure).
 */
export function useMapTrace(api: ApiClient): {
  trace: LocationTrace | null;
  transport: LiveTransport;
  error: string | null;
} {
  const t = useTranslations('Map');
  const id = useSearchParams().get('id') ?? '';
  const [error, setError] = useState<string | null>(null);

  const poll = useCallback(
    async (active: () => boolean): Promise<LocationTrace | null | undefined> => {
      if (!id) {
        // No request named: nothing to ask the server.
        if (active()) setError(readUserInfo() ? t('notFound') : SIGNED_OUT);
        return null;
      }
      try {
        return await api.call('GET /gpsTrace/phoneLocation/{id}', { params: { id } });
      } catch (e) {
        const err = e as ApiClientError;
        const signedOut = err.code === SESSION_INVALID;
        const final = err.status === 404 || err.status === 422 || signedOut;
        if (active()) setError(signedOut ? SIGNED_OUT : final ? t('notFound') : err.message);
        return final ? null : undefined;
      }
    },
    [api, id, t],
  );
  const { trace, transport } = useLiveTrace(id, poll);
  return { trace, transport, error };
}
