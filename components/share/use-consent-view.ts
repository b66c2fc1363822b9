'use client';
import { useCallback, useState } from 'react';
import type { ApiClient } from '@/lib/api/client';
import type { ConsentView } from '@/lib/contracts/consent';
import { RETRY_MS, transient } from './owner-state';

/**
 * The consent view for `code` (`GET /spyContent/consent/{code}`, lib/contracts/consent.ts `ConsentView`), as the
 * owner's page holds it (components/share/use-consent.ts). `load` fetches it: a network error, a 5xx or a rate limit
 * is retried with backoff (RETRY_MS) and shown as `failed: 'reconnecting'`, never as an invalid link; any other
 * refusal is `failed: 'invalid'`, as is an empty code from the start. Each view loaded is handed to `onView` (which
 * must keep its identity) after it is shown. `setView` lets an answer change the view in place.
 */
export function useConsentView(api: ApiClient, code: string, onView: (view: ConsentView) => void) {
  const [view, setView] = useState<ConsentView | null>(null);
  const [failed, setFailed] = useState<'invalid' | 'reconnecting' | null>(code ? null : 'invalid');

  const load = useCallback(async (): Promise<void> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const v = await api.call('GET /spyContent/consent/{id}', { params: { id: code } });
        setFailed(null);
        setView(v);
        onView(v);
        return;
      } catch (e) {
        if (!transient(e)) return setFailed('invalid');
        setFailed('reconnecting');
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }, [api, code, onView]);

  return { view, setView, failed, load };
}
